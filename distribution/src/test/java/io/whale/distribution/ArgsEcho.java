package io.whale.distribution;

/** A topology main stand-in for {@code whale jar}: prints what the CLI handed it (conf overrides, conf file, arguments). */
public final class ArgsEcho {
    private ArgsEcho() {
    }

    public static void main(String[] args) {
        System.out.println("storm.options=" + System.getProperty("storm.options"));
        System.out.println("storm.conf.file=" + System.getProperty("storm.conf.file"));
        System.out.println("args=" + String.join(" ", args));
    }
}
