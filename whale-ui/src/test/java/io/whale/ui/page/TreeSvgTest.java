package io.whale.ui.page;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.whale.multicast.MulticastTree;
import io.whale.ui.api.DrawnTree;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TreeSvgTest {
    private static final Pattern WORKER = Pattern.compile("<g class=\"worker( source)?\" data-worker=\"([^\"]+)\"");
    private static final Pattern EDGE = Pattern.compile("<line class=\"edge\"");

    @Test
    void shouldDrawOneNodePerWorkerAndOneEdgePerHop() {
        // source -> 1, 2; 1 -> 3, 4 (a relay tree of four destination workers)
        MulticastTree tree = MulticastTree.fromChildren(new int[][] {{1, 2}, {3, 4}, {}, {}, {}});
        List<String> workers = List.of("h0:1", "h1:1", "h2:1", "h3:1", "h4:1");

        String svg = TreeSvg.render(List.of(new DrawnTree("split from h0:1", "d* 2", workers, tree)));

        List<String> drawn = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        Matcher m = WORKER.matcher(svg);
        while (m.find()) {
            drawn.add(m.group(2));
            if (m.group(1) != null) {
                sources.add(m.group(2));
            }
        }
        assertEquals(workers, drawn);
        assertEquals(List.of("h0:1"), sources);
        assertEquals(4, EDGE.matcher(svg).results().count());
        assertTrue(svg.startsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""), svg);
    }

    @Test
    void shouldWrapAWideLayerOverRowsSoEveryWorkerStaysInsideThePicture() {
        int destinations = 3 * TreeSvg.PER_ROW + 1;
        int[][] children = new int[destinations + 1][0];
        children[0] = new int[destinations];
        List<String> workers = new ArrayList<>(List.of("source:1"));
        for (int v = 1; v <= destinations; v++) {
            children[0][v - 1] = v;
            workers.add("10.0.0." + v + ":6700");
        }

        String svg = TreeSvg.render(List.of(new DrawnTree("star", "", workers, MulticastTree.fromChildren(children))));

        int width = Integer.parseInt(svg.replaceFirst("(?s).*? width=\"(\\d+)\".*", "$1"));
        Matcher rect = Pattern.compile("<rect x=\"(\\d+)\" y=\"(\\d+)\"").matcher(svg);
        List<Integer> rows = new ArrayList<>();
        while (rect.find()) {
            assertTrue(Integer.parseInt(rect.group(1)) + 150 <= width, "a worker outside the picture:\n" + svg);
            int y = Integer.parseInt(rect.group(2));
            if (!rows.contains(y)) {
                rows.add(y);
            }
        }
        assertEquals(1 + 4, rows.size(), "the source's row and four rows of at most " + TreeSvg.PER_ROW);
    }

    @Test
    void shouldEscapeWhatComesFromTheCluster() {
        MulticastTree tree = MulticastTree.fromChildren(new int[][] {{1}, {}});

        String svg = TreeSvg.render(List.of(new DrawnTree("<script>", "a & b", List.of("h<0>:1", "h1:1"), tree)));

        assertTrue(svg.contains("&lt;script&gt;") && svg.contains("a &amp; b") && svg.contains("h&lt;0&gt;:1"), svg);
        assertTrue(!svg.contains("<script>"), svg);
    }

    @Test
    void shouldSaySoWhenThereIsNoBroadcastToDraw() {
        assertTrue(TreeSvg.render(List.of()).contains("No broadcast"));
    }
}
