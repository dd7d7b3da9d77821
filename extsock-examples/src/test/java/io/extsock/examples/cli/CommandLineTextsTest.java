package io.extsock.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What the command line says before it runs anything: help, option texts, suggestions. */
class CommandLineTextsTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }

    private String helpOf(String... command) {
        String[] args = new String[command.length + 1];
        System.arraycopy(command, 0, args, 0, command.length);
        args[command.length] = "--help";
        StringWriter help = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(help, true));
        assertEquals(0, commandLine.execute(args));
        return help.toString();
    }

    /** Help text as one line of single spaces: its sentences, whatever the wrapping. */
    private static String flat(String help) {
        return help.replaceAll("\\s+", " ");
    }

    @Test
    void helpOfANestedCommandIsThatCommandsHelp() {
        assertEquals(0, run("help", "file", "get"), err.toString());
        assertTrue(out.toString().startsWith("Usage: extsock file get "), out.toString());
        assertEquals(helpOf("file", "get"), out.toString());
        out.getBuffer().setLength(0);
        assertEquals(0, run("help", "perf"), err.toString());
        assertTrue(out.toString().startsWith("Usage: extsock perf "), out.toString());
    }

    @Test
    void helpOfNoSuchCommandSaysWhatThereIs() {
        assertEquals(2, run("help", "file", "put"));
        assertTrue(err.toString().contains("no command 'file put': extsock file has serve, get"), err.toString());
    }

    /** Servers listen and have no connect timeout; clients connect and are not told about port 0. */
    @Test
    void sharedOptionsSayWhatTheyDoOnEachSide() {
        for (String[] server : new String[][] {{"echo", "server"}, {"file", "serve"}, {"perf", "server"}}) {
            String help = flat(helpOf(server));
            assertFalse(help.contains("--connect-timeout"), help);
            assertTrue(help.contains("Address to listen on"), help);
            assertTrue(help.contains("0 for any free port"), help);
        }
        for (String[] client : new String[][] {{"echo", "client"}, {"file", "get"}, {"perf", "client"}}) {
            String help = flat(helpOf(client));
            assertTrue(help.contains("--connect-timeout"), help);
            assertTrue(help.contains("Host to connect to"), help);
            assertFalse(help.contains("any free port") || help.contains("Server:") || help.contains("listen"), help);
        }
    }

    @Test
    void typingMistakesAreCounted() {
        assertEquals(0, Typos.distance("--size", "--size"));
        assertEquals(1, Typos.distance("--szie", "--size"));   // two neighbours swapped
        assertEquals(1, Typos.distance("--sze", "--size"));
        assertEquals(2, Typos.distance("clinet", "clients"));
        assertEquals("--size", Typos.nearest("--szie", java.util.List.of("--spin-micros", "--size", "--count")));
        assertEquals(null, Typos.nearest("--frobnicate", java.util.List.of("--size", "--count")));
    }

    @Test
    void aTypoGetsASuggestion() {
        assertEquals(2, run("perf", "clinet", "tcp_lat"));
        assertTrue(err.toString().contains("(did you mean client?)"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("echo", "client", "--szie", "64"));
        assertTrue(err.toString().contains("(did you mean --size?)"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("file", "get", "--metod=read"));
        assertTrue(err.toString().contains("(did you mean --method?)"), err.toString());
        err.getBuffer().setLength(0);
        assertEquals(2, run("echo", "client", "--frobnicate"));
        assertFalse(err.toString().contains("did you mean"), "nothing near: no suggestion\n" + err);
    }
}
