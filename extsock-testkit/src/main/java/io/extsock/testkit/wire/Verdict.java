package io.extsock.testkit.wire;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The judge's verdict on one capture: the PDUs Wireshark decoded, every reason to fail, and
 * (for {@link WireJudge#captureAndJudge}) the exit code and output of the command that made
 * the traffic. Passed means no finding and a command that exited 0.
 */
public final class Verdict {

    private final int exitCode;
    private final String commandOutput;
    private final List<IwarpPdu> pdus;
    private final List<Finding> findings;
    private final List<String> notes;
    private final List<ExpertItem> forgiven;
    private final String history;

    Verdict(int exitCode, String commandOutput, CaptureAnalysis analysis, String history) {
        this.exitCode = exitCode;
        this.commandOutput = commandOutput;
        this.pdus = List.copyOf(analysis.pdus);
        this.findings = List.copyOf(analysis.findings);
        this.notes = List.copyOf(analysis.notes);
        this.forgiven = List.copyOf(analysis.forgiven);
        this.history = history;
    }

    public boolean passed() {
        return exitCode == 0 && findings.isEmpty();
    }

    /** The exit code of the command that made the traffic; 0 for a capture judged as it was. */
    public int exitCode() {
        return exitCode;
    }

    public String commandOutput() {
        return commandOutput;
    }

    /** Every PDU decoded, in frame order. */
    public List<IwarpPdu> pdus() {
        return pdus;
    }

    public List<Fpdu> fpdus() {
        return pdus.stream().filter(Fpdu.class::isInstance).map(Fpdu.class::cast).toList();
    }

    public List<Fpdu> fpdus(RdmapOpcode opcode) {
        return fpdus().stream().filter(f -> f.is(opcode)).toList();
    }

    public List<MpaSetupFrame> setupFrames() {
        return pdus.stream().filter(MpaSetupFrame.class::isInstance).map(MpaSetupFrame.class::cast).toList();
    }

    public List<Finding> findings() {
        return findings;
    }

    public List<Finding> findings(Finding.Kind kind) {
        return findings.stream().filter(f -> f.kind() == kind).toList();
    }

    /** The findings in one TCP stream (tshark's tcp.stream, counted from 0 in capture order). */
    public List<Finding> findingsInStream(int stream) {
        return findings.stream().filter(f -> f.stream() == stream).toList();
    }

    public List<String> notes() {
        return notes;
    }

    /** A table of every PDU, a summary, every finding and note, and the command's output. */
    public String report() {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%6s %4s %-5s %s%n", "frame", "strm", "dir", "PDU"));
        for (IwarpPdu pdu : pdus) {
            String what = pdu instanceof MpaSetupFrame setup ? setup.describe() : ((Fpdu) pdu).describe();
            out.append(String.format("%6d %4d %-5s %s%n", pdu.frame(), pdu.stream(), pdu.direction(), what));
        }
        Map<String, Long> kinds = new TreeMap<>(pdus.stream().collect(Collectors.groupingBy(
                p -> p instanceof Fpdu f ? (f.header() == null ? "FPDU?" : f.opcode().shortName())
                        : ((MpaSetupFrame) p).reply() ? "Reply" : "Request", Collectors.counting())));
        out.append(String.format("%niWARP PDUs: %d %s in %d stream(s)%n", pdus.size(), kinds,
                pdus.stream().map(IwarpPdu::stream).distinct().count()));
        Map<CrcStatus, Long> crc = new TreeMap<>(fpdus().stream().collect(Collectors.groupingBy(Fpdu::crc,
                Collectors.counting())));
        out.append("CRC: ").append(crc).append("; markers: ")
                .append(fpdus().stream().mapToInt(f -> f.markers().size()).sum()).append('\n');
        for (ExpertItem item : forgiven) {
            out.append("forgiven expert warning: ").append(item.protocol()).append(": ").append(item.message())
                    .append(item.frame() > 0 ? " (frame " + item.frame() + ")" : " (x" + item.count() + ")")
                    .append('\n');
        }
        for (String note : notes) {
            out.append("note: ").append(note).append('\n');
        }
        out.append("findings: ").append(findings.size()).append('\n');
        for (Finding finding : findings) {
            out.append("  ").append(finding).append('\n');
        }
        if (!history.isEmpty()) {
            out.append(history);
        }
        if (commandOutput != null) {
            out.append("command exit code: ").append(exitCode).append('\n');
            if (!commandOutput.isEmpty()) {
                out.append("---- command output\n").append(commandOutput);
                if (!commandOutput.endsWith("\n")) {
                    out.append('\n');
                }
            }
        }
        out.append("RESULT: ").append(passed() ? "PASS" : "FAIL").append('\n');
        return out.toString();
    }

    @Override
    public String toString() {
        return report();
    }
}
