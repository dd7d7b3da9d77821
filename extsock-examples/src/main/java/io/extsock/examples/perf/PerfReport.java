package io.extsock.examples.perf;

import io.extsock.examples.cli.LatencyStats;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * Prints results as perftest does (its column layout and format strings, tabs included), or
 * as JSON, one object per line.
 */
final class PerfReport {

    static final String RESULT_LINE = "---------------------------------------------------------------------------------------";
    static final String BW_HEADER = " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    /** perftest's RESULT_FMT_G, with --report_gbits. */
    static final String BW_HEADER_GBITS = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
            + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    /** perftest's REPORT_FMT. */
    private static final String BW_ROW = " %-7d    %-10d       %-7.2f            %-7.2f\t\t   %-7.6f";
    /** perftest's REPORT_FMT_EXT: its rows in Gb/s below 0.1 Gb/s, with six decimals. */
    private static final String BW_ROW_EXT = " %-7d    %d           %-7.6f            %-7.6f            %-7.6f";
    /** perftest's format_factor for Gb/s: 10^9 bits per second are 125,000,000 bytes; ours are MB of 10^6. */
    private static final double GBITS_PER_MB = 8 / 1000.0;
    /** perftest's REPORT_FMT_LAT. */
    private static final String LAT_ROW = " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t"
            + "%-7.2f\t\t%-7.2f \t\t%-7.2f";

    private final PrintWriter out;
    private final boolean json;
    private final boolean gbits;
    private final boolean bidirectional;
    private boolean headerPrinted;

    PerfReport(PrintWriter out, boolean json) {
        this(out, json, false, false);
    }

    /**
     * {@code gbits}: bandwidth columns in Gb/s (perftest's --report_gbits; JSON keeps MB/s, its
     * keys name the unit); {@code bidirectional}: the title says so and JSON marks it.
     */
    PerfReport(PrintWriter out, boolean json, boolean gbits, boolean bidirectional) {
        this.out = out;
        this.json = json;
        this.gbits = gbits;
        this.bidirectional = bidirectional;
    }

    /** The title block, before the first row (nothing in JSON mode). */
    void header(PerfTest test, String details) {
        if (json || headerPrinted) {
            return;
        }
        headerPrinted = true;
        out.println(RESULT_LINE);
        out.println("                    " + title(test, bidirectional));
        out.println(" " + details);
        out.println(RESULT_LINE);
        out.println(test.latency() ? LAT_HEADER : gbits ? BW_HEADER_GBITS : BW_HEADER);
        out.flush();
    }

    /** perftest's title: "RDMA_Write Bidirectional BW Test" with -b. */
    static String title(PerfTest test, boolean bidirectional) {
        return bidirectional ? test.title().replace(" BW ", " Bidirectional BW ") : test.title();
    }

    void row(PerfResult result) {
        String line = json ? json(result) : table(result, gbits);
        if (json && bidirectional) {
            line = line.substring(0, line.length() - 1) + ",\"bidirectional\":true}";
        }
        out.println(line);
        out.flush();
    }

    /** The closing line of the table. */
    void footer() {
        if (!json && headerPrinted) {
            out.println(RESULT_LINE);
            out.flush();
        }
    }

    static String table(PerfResult r) {
        return table(r, false);
    }

    /** One row; in Gb/s as perftest's --report_gbits (with its six decimals below 0.1 Gb/s). */
    static String table(PerfResult r, boolean gbits) {
        if (!r.test().latency() && gbits) {
            double average = r.bwAverageMBps() * GBITS_PER_MB;
            return String.format(Locale.ROOT, average < 0.1 ? BW_ROW_EXT : BW_ROW, r.bytes(), r.iterations(),
                    r.bwPeakMBps() * GBITS_PER_MB, average, r.msgRateMpps());
        }
        if (r.test().latency()) {
            LatencyStats l = r.latency();
            return String.format(Locale.ROOT, LAT_ROW, r.bytes(), r.iterations(), l.min() / 1e3, l.max() / 1e3,
                    l.typical() / 1e3, l.average() / 1e3, l.stdev() / 1e3, l.p99() / 1e3, l.p999() / 1e3);
        }
        return String.format(Locale.ROOT, BW_ROW, r.bytes(), r.iterations(), r.bwPeakMBps(), r.bwAverageMBps(),
                r.msgRateMpps());
    }

    static String json(PerfResult r) {
        LatencyStats l = r.latency();
        return String.format(Locale.ROOT, "{\"test\":\"%s\",\"mode\":\"%s\",\"bytes\":%d,\"iterations\":%d,"
                        + "\"bw_MBps\":%.2f,\"bw_peak_MBps\":%.2f,\"msg_rate_Mpps\":%.6f,\"lat_us_min\":%.2f,"
                        + "\"lat_us_p50\":%.2f,\"lat_us_avg\":%.2f,\"lat_us_stdev\":%.2f,\"lat_us_p99\":%.2f,"
                        + "\"lat_us_p999\":%.2f,\"lat_us_max\":%.2f}",
                r.test(), r.mode(), r.bytes(), r.iterations(), r.bwAverageMBps(), r.bwPeakMBps(), r.msgRateMpps(),
                l.min() / 1e3, l.p50() / 1e3, l.average() / 1e3, l.stdev() / 1e3, l.p99() / 1e3, l.p999() / 1e3,
                l.max() / 1e3);
    }
}
