package io.extsock.testkit.wire;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs tshark over a capture, the way the judge needs it.
 *
 * <p>Facts of Wireshark 4.0 that shape the command line:
 * <ul>
 * <li>iWARP decoding starts only through the TCP heuristic {@code iwarp_mpa_tcp}, on a segment
 *     that begins with "MPA ID Req Frame"; "Decode As" is not offered for it ({@code -d
 *     tcp.port==N,iwarp_mpa} is refused). A port with a registered TCP dissector would win
 *     over the heuristic, so heuristics go first.</li>
 * <li>The ULP heuristics above DDP (RPC over RDMA, SMB Direct) call ordinary Send payloads
 *     "Malformed"; they are not what we judge, so they are switched off.</li>
 * <li>The MPA dissector raises its Request/Reply expert items without a tree item: only the
 *     expert summary ({@code -z expert}) shows them, never PDML.</li>
 * </ul>
 */
final class Tshark {

    private static final long TIMEOUT_SECONDS = 300;

    private Tshark() {
    }

    private static List<String> base(Path pcap) {
        return new ArrayList<>(List.of("tshark", "-n", "-r", pcap.toString(),
                "-o", "tcp.try_heuristic_first:TRUE",
                "--disable-protocol", "rpcordma", "--disable-protocol", "smb_direct"));
    }

    /** Every frame of the port, dissected, as PDML. */
    static List<DissectedPacket> dissect(Path pcap, int port) throws IOException, InterruptedException {
        List<String> command = base(pcap);
        command.addAll(List.of("-T", "pdml", "-Y", "tcp.port==" + port));
        Path errors = Files.createTempFile("tshark", ".err");
        try {
            Process tshark = new ProcessBuilder(command).redirectError(errors.toFile()).start();
            tshark.getOutputStream().close();
            List<DissectedPacket> packets;
            try (InputStream pdml = tshark.getInputStream()) {
                packets = PdmlReader.read(pdml);
            }
            if (!tshark.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                tshark.destroyForcibly();
                throw new IOException("tshark -T pdml did not finish within " + TIMEOUT_SECONDS + " s");
            }
            if (tshark.exitValue() != 0) {
                throw new IOException("tshark -T pdml failed (exit " + tshark.exitValue() + "): "
                        + Files.readString(errors, StandardCharsets.UTF_8));
            }
            return packets;
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    private static final Pattern SECTION = Pattern.compile("^(Errors|Warns|Notes|Chats|Comments) \\(\\d+\\)");
    private static final Pattern ROW = Pattern.compile("^\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s+(.*\\S)\\s*$");

    /** tshark's expert summary of the port: one item per distinct message, with its count. */
    static List<ExpertItem> expertSummary(Path pcap, int port) throws IOException, InterruptedException {
        List<String> command = base(pcap);
        command.addAll(List.of("-q", "-z", "expert,tcp.port==" + port));
        ExternalCommand run = ExternalCommand.run(command, TIMEOUT_SECONDS);
        if (!run.succeeded()) {
            throw new IOException("tshark -z expert failed: " + run);
        }
        List<ExpertItem> items = new ArrayList<>();
        String severity = null;
        for (String line : run.output().split("\n")) {
            Matcher section = SECTION.matcher(line);
            if (section.find()) {
                severity = switch (section.group(1)) {
                    case "Errors" -> "error";
                    case "Warns" -> "warning";
                    case "Notes" -> "note";
                    case "Chats" -> "chat";
                    default -> "comment";
                };
                continue;
            }
            Matcher row = ROW.matcher(line);
            if (severity != null && row.matches()) {
                items.add(new ExpertItem(severity, row.group(3), row.group(4), 0, Integer.parseInt(row.group(1))));
            }
        }
        return items;
    }
}
