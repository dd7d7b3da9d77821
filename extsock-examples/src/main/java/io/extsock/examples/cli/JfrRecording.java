package io.extsock.examples.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionStrategy;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * {@code --jfr FILE}, on every command: runs the command under a JDK Flight Recorder recording
 * and writes it to FILE when the command ends, whether it succeeded or failed, and also when
 * the process is stopped (Ctrl-C, SIGTERM: JFR's own exit hook writes it). The recording has
 * the JDK's "default" settings (CPU, GC, threads, socket I/O above 20 ms, exceptions: what
 * explains a slow or failing run at about 1% overhead) and every extsock event, the connection
 * statistics each second.
 */
final class JfrRecording implements IExecutionStrategy {

    /** extsock's events (io.extsock.core.events), by name: the command line does not see the engine. */
    static final List<String> EXTSOCK_EVENTS = List.of("io.extsock.IwarpConnected", "io.extsock.NegotiationFailed",
            "io.extsock.IwarpFallback", "io.extsock.TerminateSent", "io.extsock.TerminateReceived",
            "io.extsock.StreamWindowGrown", "io.extsock.StreamWindowRefused");
    static final String STATISTICS_EVENT = "io.extsock.ConnectionStatistics";

    private final IExecutionStrategy command;

    JfrRecording(IExecutionStrategy command) {
        this.command = command;
    }

    @Override
    public int execute(ParseResult parseResult) {
        Path file = requestedFile(parseResult);
        if (file == null) {
            return command.execute(parseResult);
        }
        ParseResult last = parseResult;
        while (last.subcommand() != null) {
            last = last.subcommand();
        }
        Recording recording = start(file, last.commandSpec().commandLine());
        try {
            return command.execute(parseResult);
        } finally {
            recording.stop();  // writes the file
            recording.close();
        }
    }

    /** The FILE of {@code --jfr} on whichever level of the command line it was given, or null. */
    private static Path requestedFile(ParseResult parseResult) {
        Path file = null;
        for (ParseResult level = parseResult; level != null; level = level.subcommand()) {
            OptionSpec option = level.matchedOption("--jfr");
            if (option != null) {
                file = option.getValue();
            }
        }
        return file;
    }

    private static Recording start(Path file, CommandLine commandLine) {
        Recording recording;
        try {
            recording = new Recording(Configuration.getConfiguration("default"));
        } catch (IOException | ParseException e) {
            recording = new Recording();  // the JDK's settings file is missing: extsock's events alone
        }
        recording.setName("extsock");
        for (String event : EXTSOCK_EVENTS) {
            recording.enable(event);
        }
        recording.enable(STATISTICS_EVENT).withPeriod(Duration.ofSeconds(1));
        recording.setToDisk(true);
        recording.setDumpOnExit(true);
        try {
            recording.setDestination(file.toAbsolutePath());
        } catch (IOException e) {
            recording.close();
            String why = e instanceof java.nio.file.NoSuchFileException ? "no such directory"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : UserErrors.message(e);
            throw new ParameterException(commandLine, "--jfr: cannot write " + file + ": " + why);
        }
        recording.start();
        return recording;
    }
}
