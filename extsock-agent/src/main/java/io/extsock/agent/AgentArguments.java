package io.extsock.agent;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The agent's arguments, as given after {@code -javaagent:extsock-agent.jar=}: {@code
 * rules=FILE[,log=off|info|debug][,fallback=on|off]}, in any order, each at most once. The rules
 * file is required; log defaults to off and fallback to on. A comma separates arguments, so the
 * path of the rules file cannot hold one.
 */
public final class AgentArguments {

    static final String USAGE = "-javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off]";

    private final Path rulesFile;
    private final LogLevel log;
    private final boolean fallback;

    private AgentArguments(Path rulesFile, LogLevel log, boolean fallback) {
        this.rulesFile = rulesFile;
        this.log = log;
        this.fallback = fallback;
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
                default:
                    throw new AgentConfigurationException("unknown argument '" + name + "': expected rules, log or fallback, "
                            + USAGE);
            }
        }
        if (rulesFile == null) {
            throw new AgentConfigurationException("no rules file: add rules=FILE, " + USAGE);
        }
        return new AgentArguments(rulesFile, log, fallback);
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
     * should carry on as plain TCP. Kept for {@code IwarpOptions.FALLBACK}, which is not there
     * yet: see {@link ConvertedSocketOptions}.
     *
     * @return true for fallback=on (the default)
     */
    public boolean fallback() {
        return fallback;
    }
}
