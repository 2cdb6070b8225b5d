package io.whale.ui.page;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.google.common.html.HtmlEscapers;
import java.util.List;

/** The pages' shell (head, style, navigation, error box) and escaping for HTML and SVG text. */
public final class Html {
    private static final String STYLE = """
        body{font-family:sans-serif;margin:0;color:#222;background:#fafbfc}
        header{background:#1f3a5f;color:#fff;padding:10px 18px}header a{color:#fff;text-decoration:none;margin-right:18px}
        main{padding:8px 18px}h2{margin:18px 0 6px;font-size:17px;color:#1f3a5f}
        table{border-collapse:collapse;margin:4px 0 10px;background:#fff}
        th,td{border:1px solid #d5dbe2;padding:3px 8px;font-size:13px;text-align:left}th{background:#eef2f6}
        td.n{text-align:right;font-variant-numeric:tabular-nums}
        .error{background:#fdecea;border:1px solid #e0a09a;color:#8a1f11;padding:8px 12px;margin:10px 0}
        .on{color:#1b7a32;font-weight:bold}.off{color:#999}
        form.action{display:inline}button{margin-right:6px}
        .panel{border:2px solid #f0b54a;background:#fffaf0;padding:4px 12px;margin-top:12px}
        """;

    private Html() {
    }

    public static String escape(Object text) {
        return HtmlEscapers.htmlEscaper().escape(String.valueOf(text));
    }

    /**
     * {@code text} as a JavaScript string literal, quotes included: line breaks, quotes and backslashes escaped, so a
     * topology name cannot end the string or the script (HTML-escape it again inside an attribute).
     */
    public static String jsString(String text) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(text)).replace("<", "\\u003c") + "\"";
    }

    /** A whole page: {@code title} in the head and as the first heading, {@code body} below the navigation. */
    public static String page(String title, String body) {
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escape(title) + " - Whale UI</title>"
            + "<style>" + STYLE + "</style></head><body><header><a href=\"/\"><b>Whale</b> UI</a><a href=\"/\">Cluster</a>"
            + "<a href=\"/api/v1/cluster/summary\">JSON API</a><a href=\"/metrics\">/metrics</a></header><main><h1 style=\"font-size:20px\">"
            + escape(title) + "</h1>" + body + "</main></body></html>";
    }

    /** What went wrong, as the operator reads it on the page. */
    public static String error(String message) {
        return "<div class=\"error\" role=\"alert\">" + escape(message) + "</div>";
    }

    /** A table: a header row and rows of cells already escaped; numeric cells (class n) are right-aligned. */
    public static String table(String cssClass, List<String> header, List<List<String>> rows) {
        StringBuilder t = new StringBuilder("<table class=\"").append(cssClass).append("\"><tr>");
        header.forEach(h -> t.append("<th>").append(escape(h)).append("</th>"));
        t.append("</tr>");
        for (List<String> row : rows) {
            t.append("<tr>");
            row.forEach(cell -> t.append(cell.startsWith("<td") ? cell : "<td>" + cell + "</td>"));
            t.append("</tr>");
        }
        return t.append("</table>").toString();
    }

    /** A right-aligned number cell. */
    public static String number(Object value) {
        return "<td class=\"n\">" + escape(value) + "</td>";
    }
}
