package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With JFR off, extsock's events cost nothing: in a JVM that never records, everything that has
 * an event happens, and not one event class is loaded, nor JFR's metadata set up (the first
 * event class loaded would do that: hundreds of classes).
 */
@Timeout(120)
class JfrOffTest {

    @Test
    void noEventClassIsLoadedWithoutJfr() throws Exception {
        try (JavaProcess probe = JavaProcess.start(List.of("-Xlog:class+load=info:stdout", "-cp",
                System.getProperty("java.class.path"), JfrOffProbe.class.getName()))) {
            assertEquals(0, probe.waitFor(100, TimeUnit.SECONDS), probe.output());
            String output = probe.output();
            assertTrue(output.contains("\nwindow 524288\n") || output.contains("\nwindow 1048576\n"),
                    "the window grew\n" + output);
            assertTrue(output.contains("\nterminated 1\n"), output);
            assertTrue(output.contains("\nfailed NOT_AN_IWARP_PEER\n"), output);
            assertTrue(output.contains("\njfr initialized false\n"), output);
            // The paths to the events ran ...
            assertTrue(output.contains("io.extsock.core.events.ExtsockEvents source:"), output);
            assertTrue(output.contains("io.extsock.core.engine.StatisticsEvents source:"), output);
            // ... and stopped before any event.
            for (String event : List.of("IwarpConnectedEvent", "NegotiationFailedEvent", "TerminateSentEvent",
                    "TerminateReceivedEvent", "StreamWindowGrownEvent", "StreamWindowRefusedEvent",
                    "ConnectionStatisticsEvent")) {
                assertFalse(output.contains("io.extsock.core.events." + event + " source:"), event + " was loaded");
            }
            assertFalse(output.contains("jdk.jfr.internal.MetadataRepository source:"), "JFR's metadata was set up");
        }
    }
}
