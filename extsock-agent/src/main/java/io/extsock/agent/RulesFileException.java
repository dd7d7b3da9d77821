package io.extsock.agent;

import java.nio.file.Path;

/** A rules file that cannot be read or parsed: names the file, the line (if any) and the problem. */
public final class RulesFileException extends AgentConfigurationException {

    private static final long serialVersionUID = 1L;

    /** For a file that could not be read at all: there is no line to name. */
    public static final int NO_LINE = 0;

    private final transient Path file;
    private final int line;
    private final String problem;

    /**
     * @param file    the rules file
     * @param line    its line (from 1), or {@link #NO_LINE}
     * @param problem what is wrong there
     * @param cause   the error behind it, or null
     */
    public RulesFileException(Path file, int line, String problem, Throwable cause) {
        super("rules file " + file + (line == NO_LINE ? "" : ", line " + line) + ": " + problem, cause);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    /** @return the rules file */
    public Path file() {
        return file;
    }

    /** @return the line (from 1), or {@link #NO_LINE} for a file that could not be read */
    public int line() {
        return line;
    }

    /** @return what is wrong, without the file and line */
    public String problem() {
        return problem;
    }
}
