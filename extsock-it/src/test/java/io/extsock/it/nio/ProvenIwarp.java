package io.extsock.it.nio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Checks what a program printed of the iWARP connections it used ({@code IwarpProof}'s lines). */
final class ProvenIwarp {

    private ProvenIwarp() {
    }

    /**
     * Every connection the program proved said IWARP_MODE true after its traffic, and their RDMAP
     * Sends carried at least the bytes given each way. Waits for the lines, which a server prints
     * when its connection ends.
     */
    static void assertRanInIwarpMode(ProgramJvm program, String who, long sentAtLeast, long receivedAtLeast,
            Duration limit) throws IOException, InterruptedException {
        program.awaitLine(Pattern.compile("(" + who + " iwarp received) \\d+ sends \\d+ bytes\n"), limit);
        String output = program.stdout();
        assertTrue(output.contains(who + " iwarp-mode true\n"), "no line '" + who + " iwarp-mode true': " + program);
        assertTrue(!output.contains(who + " iwarp-mode false\n"), "a connection in passthrough: " + program);
        assertCarried(program, output, who + " iwarp sent", sentAtLeast);
        assertCarried(program, output, who + " iwarp received", receivedAtLeast);
    }

    private static void assertCarried(ProgramJvm program, String output, String prefix, long atLeast) {
        Matcher lines = Pattern.compile(prefix + " (\\d+) sends (\\d+) bytes\n").matcher(output);
        long sends = 0;
        long bytes = 0;
        while (lines.find()) {
            sends += Long.parseLong(lines.group(1));
            bytes += Long.parseLong(lines.group(2));
        }
        assertTrue(sends > 0 && bytes >= atLeast,
                "'" + prefix + "': " + sends + " sends of " + bytes + " bytes, not at least " + atLeast + ": " + program);
    }
}
