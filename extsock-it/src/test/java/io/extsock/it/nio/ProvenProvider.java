package io.extsock.it.nio;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;

/** Checks what a program printed of the channels it ran on ({@code ProviderProof}'s lines). */
final class ProvenProvider {

    static final String EXTSOCKS = "io.extsock.ExtendedSelectorProvider";
    static final String CHANNEL = "io.extsock.internal.nio.SwitchableSocketChannel";
    static final String SERVER_CHANNEL = "io.extsock.internal.nio.SwitchableServerSocketChannel";
    static final String SELECTOR = "io.extsock.internal.nio.ExtendedSelector";

    private ProvenProvider() {
    }

    /** The program printed the line: "WHO WHAT CLASS". */
    static void assertPrinted(ProgramJvm program, String who, String what, String className) throws IOException {
        String line = who + " " + what + " " + className + "\n";
        assertTrue(program.stdout().contains(line), "no line '" + line.strip() + "': " + program);
    }

    /** Extsock's provider was the JVM's, and the program's channel and selector were extsock's. */
    static void assertRanOnExtsock(ProgramJvm program, String who) throws IOException {
        assertPrinted(program, who, "provider", EXTSOCKS);
        assertPrinted(program, who, "channel", CHANNEL);
        assertPrinted(program, who, "selector", SELECTOR);
    }
}
