package io.whale.bench.paper;

import io.whale.bench.Spread;
import java.util.Optional;

/**
 * The base rate of Figs. 23–24's steps and how it was set: {@link PaperOptions#STEP_BASE_OVER_SEQUENTIAL} times the
 * sequential structure's sustainable rate (the median over the rounds), so that the steps cross what it carries, as the
 * paper's did; the non-blocking tree's own when the sequential structure did not run (the CI smoke runs the tree alone).
 */
record StepBase(double ratePerSecond, String from) {
    static final String FROM_SEQUENTIAL = "4/3 of the sequential structure's sustainable rate";
    static final String FROM_TREE = "the non-blocking tree's sustainable rate (the sequential structure did not run)";

    /** Empty when neither structure has a sustainable rate to step from. */
    static Optional<StepBase> of(Spread sequential, Spread tree) {
        if (sequential.measured()) {
            return Optional.of(new StepBase(PaperOptions.STEP_BASE_OVER_SEQUENTIAL * sequential.median(), FROM_SEQUENTIAL));
        }
        return tree.measured() ? Optional.of(new StepBase(tree.median(), FROM_TREE)) : Optional.empty();
    }
}
