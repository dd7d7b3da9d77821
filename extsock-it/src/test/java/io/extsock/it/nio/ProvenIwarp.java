package io.extsock.it.nio;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

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
     * Sends carried at least the bytes given each way, summed over its connections. Waits for the
     * lines, which a server prints as each of its connections ends.
     */
    static void assertRanInIwarpMode(ProgramJvm program, String who, long sentAtLeast, long receivedAtLeast,
            Duration limit) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            String output = program.stdout();
            Carried sent = Carried.in(output, who + " iwarp sent");
            Carried received = Carried.in(output, who + " iwarp received");
            if (sent.sends > 0 && sent.bytes >= sentAtLeast && received.sends > 0 && received.bytes >= receivedAtLeast) {
                assertTrue(output.contains(who + " iwarp-mode true\n"), "no line '" + who + " iwarp-mode true': " + program);
                assertFalse(output.contains(who + " iwarp-mode false\n"), "a connection in passthrough: " + program);
                return;
            }
            if (System.nanoTime() > deadline) {
                fail(who + "'s Sends carried " + sent + " sent and " + received + " received, not at least " + sentAtLeast
                        + " and " + receivedAtLeast + " bytes within " + limit + ": " + program);
            }
            Thread.sleep(20);
        }
    }

    /** The Sends and their bytes on every line "PREFIX N sends B bytes", summed. */
    private record Carried(long sends, long bytes) {
        static Carried in(String output, String prefix) {
            Matcher lines = Pattern.compile(prefix + " (\\d+) sends (\\d+) bytes\n").matcher(output);
            long sends = 0;
            long bytes = 0;
            while (lines.find()) {
                sends += Long.parseLong(lines.group(1));
                bytes += Long.parseLong(lines.group(2));
            }
            return new Carried(sends, bytes);
        }

        @Override
        public String toString() {
            return sends + " sends of " + bytes + " bytes";
        }
    }
}
