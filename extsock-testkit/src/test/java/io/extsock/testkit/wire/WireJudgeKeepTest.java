package io.extsock.testkit.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the judge keeps a capture it did not accept, and what it says when it cannot. */
class WireJudgeKeepTest {

    @TempDir
    Path temp;

    @AfterEach
    void forgetTheDirectory() {
        System.clearProperty(WireJudge.KEPT_CAPTURES_PROPERTY);
    }

    @Test
    void aCopyGoesToTheNamedDirectoryUnderTheCapturesNameAndWhy() throws Exception {
        Path pcap = Files.write(temp.resolve("extsock-STREAMS.pcapng"), new byte[] {0x0A, 0x0D, 0x0D, 0x0A, 1, 2});
        Path kept = temp.resolve("kept/here");
        System.setProperty(WireJudge.KEPT_CAPTURES_PROPERTY, kept.toString());

        Path copy = Path.of(WireJudge.keep(pcap, "set-aside-1"));

        assertEquals(kept.toAbsolutePath(), copy.getParent());
        assertTrue(copy.getFileName().toString().startsWith("extsock-STREAMS-set-aside-1-"), copy.toString());
        assertTrue(copy.getFileName().toString().endsWith(".pcapng"), copy.toString());
        assertArrayEquals(Files.readAllBytes(pcap), Files.readAllBytes(copy));
    }

    @Test
    void aCopyThatCannotBeMadeIsSaidNotThrown() throws Exception {
        Path pcap = Files.write(temp.resolve("capture.pcapng"), new byte[] {1});
        Path aFile = Files.write(temp.resolve("not-a-directory"), new byte[] {0});
        System.setProperty(WireJudge.KEPT_CAPTURES_PROPERTY, aFile.toString());

        String where = WireJudge.keep(pcap, "failed");

        assertTrue(where.startsWith("nowhere: copying it to "), where);
    }
}
