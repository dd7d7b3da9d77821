package io.extsock.agent;

import io.extsock.IwarpOptions;
import io.extsock.internal.IwarpOptionValues;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The agent's arguments, as given after {@code -javaagent:extsock-agent.jar=}: {@code
 * rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]}, in any order, each at
 * most once. The rules file is required; log defaults to off, fallback to on and fallback-wait to
 * {@code IwarpOptions.FALLBACK_WAIT}'s default. A comma separates arguments, so the path of the
 * rules file cannot hold one.
 */
public final class AgentArguments {

    static final String USAGE =
            "-javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS]";

    private final Path rulesFile;
    private final LogLevel log;
    private final boolean fallback;
    private final int fallbackWaitMillis;

    private AgentArguments(Path rulesFile, LogLevel log, boolean fallback, int fallbackWaitMillis) {
        this.rulesFile = rulesFile;
        this.log = log;
        this.fallback = fallback;
        this.fallbackWaitMillis = fallbackWaitMillis;
    }

    /**
     * @param text what followed {@code =} in {@code -javaagent:}, or null when nothing did
     * @return the arguments
     * @throws AgentConfigurationException naming the argument that is wrong and why
     */
    public static AgentArguments parse(String text) throws AgentConfigurationException {
        if (text == null || text.isBlank()) {
            throw new AgentConfigurationException("no arguments: the agent needs a rules file, " + USAGE);
        }
        Path rulesFile = null;
        LogLevel log = LogLevel.OFF;
        boolean fallback = true;
        int fallbackWaitMillis = IwarpOptionValues.defaultValue(IwarpOptions.FALLBACK_WAIT);
        Set<String> seen = new HashSet<>();
        for (String argument : text.split(",", -1)) {
            int equals = argument.indexOf('=');
            if (equals <= 0) {
                throw new AgentConfigurationException("bad argument '" + argument + "': expected NAME=VALUE, " + USAGE);
            }
            String name = argument.substring(0, equals);
            String value = argument.substring(equals + 1);
            if (!seen.add(name)) {
                throw new AgentConfigurationException("argument '" + name + "' is given twice");
            }
            switch (name) {
                case "rules":
                    if (value.isEmpty()) {
                        throw new AgentConfigurationException("argument 'rules=' names no file");
                    }
                    rulesFile = Path.of(value);
                    break;
                case "log":
                    log = logLevel(value);
                    break;
                case "fallback":
                    fallback = onOrOff(value);
                    break;
                case "fallback-wait":
                    fallbackWaitMillis = milliseconds(name, value);
                    break;
                default:
                    throw new AgentConfigurationException("unknown argument '" + name
                            + "': expected rules, log, fallback or fallback-wait, " + USAGE);
            }
        }
        if (rulesFile == null) {
            throw new AgentConfigurationException("no rules file: add rules=FILE, " + USAGE);
        }
        return new AgentArguments(rulesFile, log, fallback, fallbackWaitMillis);
    }

    private static LogLevel logLevel(String value) throws AgentConfigurationException {
        switch (value) {
            case "off":
            case "info":
            case "debug":
                return LogLevel.valueOf(value.toUpperCase(Locale.ROOT));
            default:
                throw new AgentConfigurationException("bad value 'log=" + value + "': expected off, info or debug");
        }
    }

    private static boolean onOrOff(String value) throws AgentConfigurationException {
        switch (value) {
            case "on":
                return true;
            case "off":
                return false;
            default:
                throw new AgentConfigurationException("bad value 'fallback=" + value + "': expected on or off");
        }
    }

    /** A whole number of milliseconds, at least 1 (as the iWARP options' waits take them). */
    private static int milliseconds(String name, String value) throws AgentConfigurationException {
        int millis;
        try {
            millis = value.matches("[0-9]+") ? Integer.parseInt(value) : -1;
        } catch (NumberFormatException tooLarge) {
            millis = -1;
        }
        if (millis < 1) {
            throw new AgentConfigurationException("bad value '" + name + "=" + value
                    + "': expected milliseconds, a whole number from 1 to " + Integer.MAX_VALUE);
        }
        return millis;
    }

    /** @return the rules file */
    public Path rulesFile() {
        return rulesFile;
    }

    /** @return what the agent prints */
    public LogLevel log() {
        return log;
    }

    /**
     * Whether a connection under an iwarp rule whose peer turns out not to be an iWARP peer
     * carries on as plain TCP ({@code IwarpOptions.FALLBACK}) or fails: see {@link
     * ConvertedSocketOptions}.
     *
     * @return true for fallback=on (the default)
     */
    public boolean fallback() {
        return fallback;
    }

    /**
     * How long a connection under an iwarp rule waits for its peer's MPA key before it takes a
     * silent peer for a plain one ({@code IwarpOptions.FALLBACK_WAIT}): then it falls back, or
     * with fallback=off fails.
     *
     * @return milliseconds, at least 1
     */
    public int fallbackWaitMillis() {
        return fallbackWaitMillis;
    }
}
