package io.extsock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

/** What an {@code extsock rping -c -v -V} run that passed printed. */
final class RpingTranscript {

    private RpingTranscript() {
    }

    /** Exit 0, every ping verified (-V) and echoed (-v): rping's own text, as the server wrote it back. */
    static void assertPings(Cli client, int size, int count) throws Exception {
        assertEquals(0, client.waitFor(), client.transcript());
        List<String> pings = client.out().lines().filter(line -> line.startsWith("ping data: ")).toList();
        assertEquals(count, pings.size(), client.transcript());
        for (int i = 0; i < count; i++) {
            String text = pings.get(i).substring("ping data: ".length());
            assertTrue(text.startsWith("rdma-ping-" + i + ": "), client.transcript());
            assertEquals(size - 1, text.length(), "the whole buffer but its NUL\n" + client.transcript());
        }
        assertEquals("", client.err(), client.transcript());
    }
}
