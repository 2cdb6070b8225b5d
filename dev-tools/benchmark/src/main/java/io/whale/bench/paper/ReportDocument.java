package io.whale.bench.paper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A report as a list of blocks — headings, paragraphs, tables, images — written once as Markdown (images linked) and
 * once as a self-contained HTML page (images embedded). Text may hold {@code `code`} spans.
 */
final class ReportDocument {
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private interface Block {
        void markdown(StringBuilder md);

        void html(StringBuilder html, Path dir) throws IOException;
    }

    private record Heading(int level, String text) implements Block {
        public void markdown(StringBuilder md) {
            md.append("#".repeat(level)).append(' ').append(text).append("\n\n");
        }

        public void html(StringBuilder html, Path dir) {
            html.append("<h").append(level).append('>').append(inline(text)).append("</h").append(level).append(">\n");
        }
    }

    private record Paragraph(String text) implements Block {
        public void markdown(StringBuilder md) {
            md.append(text).append("\n\n");
        }

        public void html(StringBuilder html, Path dir) {
            html.append("<p>").append(inline(text)).append("</p>\n");
        }
    }

    private record Table(List<String> header, List<List<String>> rows) implements Block {
        public void markdown(StringBuilder md) {
            md.append(row(header)).append(row(header.stream().map(c -> "---").toList()));
            rows.forEach(r -> md.append(row(r)));
            md.append('\n');
        }

        public void html(StringBuilder html, Path dir) {
            html.append("<table><tr>");
            header.forEach(c -> html.append("<th>").append(inline(c)).append("</th>"));
            html.append("</tr>\n");
            for (List<String> r : rows) {
                html.append("<tr>");
                r.forEach(c -> html.append("<td>").append(inline(c)).append("</td>"));
                html.append("</tr>\n");
            }
            html.append("</table>\n");
        }
    }

    private record Image(String file, String alt) implements Block {
        public void markdown(StringBuilder md) {
            md.append("![").append(alt).append("](").append(file).append(")\n\n");
        }

        public void html(StringBuilder html, Path dir) throws IOException {
            Path png = dir.resolve(file);
            html.append("<p><img alt=\"").append(escape(alt)).append("\" src=\"")
                .append(Files.exists(png) ? "data:image/png;base64," + Base64.getEncoder().encodeToString(Files.readAllBytes(png)) : file)
                .append("\"></p>\n");
        }
    }

    private final List<Block> blocks = new ArrayList<>();

    ReportDocument heading(int level, String text) {
        blocks.add(new Heading(level, text));
        return this;
    }

    ReportDocument paragraph(String text) {
        blocks.add(new Paragraph(text));
        return this;
    }

    ReportDocument table(List<String> header, List<List<String>> rows) {
        blocks.add(new Table(header, rows));
        return this;
    }

    /** A PNG in the report's folder. */
    ReportDocument image(String file, String alt) {
        blocks.add(new Image(file, alt));
        return this;
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        blocks.forEach(b -> b.markdown(md));
        return md.toString();
    }

    String html(Path dir, String title) throws IOException {
        StringBuilder html = new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(escape(title))
            .append("</title>\n<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;line-height:1.4}"
                + "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}"
                + "th:first-child,td:first-child{text-align:left}img{max-width:100%}code{background:#f2f2f2}</style></head><body>\n");
        for (Block b : blocks) {
            b.html(html, dir);
        }
        return html.append("</body></html>\n").toString();
    }

    private static String row(List<String> cells) {
        return "| " + String.join(" | ", cells.stream().map(c -> c.replace("|", "\\|")).toList()) + " |\n";
    }

    private static String inline(String text) {
        Matcher m = CODE.matcher(escape(text));
        return m.replaceAll(r -> "<code>" + Matcher.quoteReplacement(r.group(1)) + "</code>");
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
