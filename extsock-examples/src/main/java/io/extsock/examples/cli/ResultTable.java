package io.extsock.examples.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with a header row and columns as wide as their widest cell; numbers right-aligned. */
public final class ResultTable {

    private final List<String[]> rows = new ArrayList<>();

    public ResultTable(String... header) {
        rows.add(header);
    }

    public void add(String... cells) {
        rows.add(cells);
    }

    public void print(PrintWriter out) {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            StringBuilder line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(c == 0 ? "" : "  ").append(pad(rows.get(r)[c], widths[c], numeric(c)));
            }
            out.println(line.toString().stripTrailing());
            if (r == 0) {
                out.println("-".repeat(line.toString().stripTrailing().length()));
            }
        }
        out.flush();
    }

    /** Whether every cell below the header is a number: such columns line up on the right. */
    private boolean numeric(int column) {
        for (int r = 1; r < rows.size(); r++) {
            String cell = rows.get(r)[column];
            if (cell.isEmpty() || !(Character.isDigit(cell.charAt(0)) || cell.charAt(0) == '-')) {
                return false;
            }
        }
        return rows.size() > 1;
    }

    private static String pad(String cell, int width, boolean right) {
        String space = " ".repeat(width - cell.length());
        return right ? space + cell : cell + space;
    }
}
