package io.whale.multicast.sim;

import io.whale.multicast.control.Direction;

/**
 * One dynamic switch in a simulated run, with the Theorem 4 check: a negative scale-down triggered at t* with
 * queue q(t*) and input rate v_in(t*) loses nothing if T_switch &lt; (Q − q(t*)) / v_in(t*).
 *
 * @param decidedAtSeconds             t*
 * @param switchMillis                 T_switch (the source emits nothing in this time)
 * @param queueAtDecision              q(t*)
 * @param inputRateAtDecision          v_in(t*), the true rate of the arrival process
 * @param measuredRateAtDecision       λ as the stream monitor saw it
 * @param theorem4BoundMillis          (Q − q(t*)) / v_in(t*)
 * @param theorem4Holds                T_switch &lt; the bound
 * @param droppedDuringSwitch          tuples dropped at the source while switching
 * @param peakQueueDuringSwitch        longest queue seen while switching
 * @param backUnderWaterlineMillis     from t* to the first monitor sample after the switch with the queue under
 *                                     l_w; -1 if it never got there before the run ended
 */
public record SwitchRecord(double decidedAtSeconds, Direction direction, int fromMaxOutDegree, int toMaxOutDegree,
                           int moves, double switchMillis, int queueAtDecision, double inputRateAtDecision,
                           double measuredRateAtDecision, double theorem4BoundMillis, boolean theorem4Holds,
                           long droppedDuringSwitch, int peakQueueDuringSwitch, double backUnderWaterlineMillis) {
}
