package io.whale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.storm.utils.VersionInfo;
import org.junit.jupiter.api.Test;

class WhaleVersionTest {

    @Test
    void bannerNamesWhaleAndTheStormReleaseItReplaces() {
        assertEquals("Whale " + System.getProperty("whale.expected.version") + " (Apache Storm 2.8.3)", WhaleVersion.banner());
    }

    @Test
    void stormVersionIsStillTheUpstreamRelease() {
        // Supervisors pick the worker launcher by the topology's storm version: it must stay 2.8.3.
        assertEquals("2.8.3", VersionInfo.getVersion());
    }

    @Test
    void versionCommandPrintsBothVersions() {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            VersionInfo.main(new String[0]);
        } finally {
            System.setOut(original);
        }
        String[] lines = captured.toString(StandardCharsets.UTF_8).split("\\R");
        assertEquals("Storm 2.8.3", lines[0]);
        assertEquals(WhaleVersion.banner(), lines[1]);
        assertTrue(lines[2].startsWith("Carries the upstream fix: ") && lines[2].endsWith("(CVE-2026-41081)"), lines[2]);
        assertTrue(lines[lines.length - 2].startsWith("Branch "), "the upstream lines follow");
    }

    @Test
    void shouldListEveryUpstreamFixOfTheSeriesByItsSubject() {
        assertEquals(java.util.List.of("The TLS Thrift transport serves a client as its verified certificate's subject, and refuses one "
            + "without (CVE-2026-41081)", "A worker finds its worker token, and a daemon its Hadoop user, on Java 24 and newer "
            + "(Storm 2.8.6, apache/storm#8483)"), WhaleVersion.upstreamFixes());
    }
}
