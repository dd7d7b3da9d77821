package io.extsock.agent;

import io.extsock.IwarpUnavailableException;
import io.extsock.internal.IwarpProviders;
import java.lang.instrument.Instrumentation;

/**
 * The java agent: {@code java
 * -javaagent:extsock-agent.jar=rules=FILE[,log=off|info|debug][,fallback=on|off][,fallback-wait=MS] ...}.
 * Before the program's main method runs, it reads the rules and installs socket factories that
 * make every {@code java.net.Socket} and {@code ServerSocket} an extsock one, switched to
 * IWARP_MODE or left plain TCP connection by connection as the rules say.
 *
 * <p>A configuration it cannot start with stops the JVM before the program runs, with exit
 * status 1 and one line on standard error that says what is wrong and where.
 */
public final class ExtsockAgent {

    /** The JVM's exit status when the agent cannot start. */
    static final int CONFIGURATION_ERROR_STATUS = 1;

    private ExtsockAgent() {
    }

    /**
     * Entry point of {@code -javaagent}.
     *
     * @param arguments       what followed {@code =} in {@code -javaagent:}, or null
     * @param instrumentation opens the JDK's selector provider to extsock's (the agent changes no class)
     */
    public static void premain(String arguments, Instrumentation instrumentation) {
        try {
            start(arguments, instrumentation);
        } catch (AgentConfigurationException e) {
            // One line and exit status 1. Were premain to throw, the JVM would print the trace,
            // a dozen lines of its own (JPLISAgent assertions, "FATAL ERROR in native method",
            // native frames) and abort with SIGABRT (status 134), on JDK 17 as on JDK 25.
            System.err.println("extsock agent: " + e.getMessage());
            System.err.flush();
            System.exit(CONFIGURATION_ERROR_STATUS);
        }
    }

    static void start(String argumentText, Instrumentation instrumentation) throws AgentConfigurationException {
        AgentArguments arguments = AgentArguments.parse(argumentText);
        Rules rules = RulesParser.withSystemResolver().parse(arguments.rulesFile());
        refuseSocksProxy();
        if (rules.anyAsksFor(Action.IWARP)) {
            requireEngine();
        }
        ConnectionReport report = new ConnectionReport(arguments.log(), System.err, rules.count(Action.IWARP));
        SocketConversion.install(rules, arguments, report);
        boolean channels = ChannelConversion.install(rules, arguments, report, instrumentation);
        report.printStart(arguments, rules, channels);
        Runtime.getRuntime().addShutdownHook(new Thread(report::printSummary, "extsock-agent-summary"));
    }

    /**
     * A Socket made by a factory never goes through the JDK's SOCKS implementation: with the
     * agent, a program told to use a SOCKS proxy would connect directly instead, silently. Better
     * not to start.
     */
    private static void refuseSocksProxy() throws AgentConfigurationException {
        String proxy = System.getProperty("socksProxyHost");
        if (proxy != null && !proxy.isEmpty()) {
            throw new AgentConfigurationException("socksProxyHost is set (" + proxy + "), but sockets the agent"
                    + " converts connect directly, bypassing SOCKS proxies: drop one or the other");
        }
    }

    private static void requireEngine() throws AgentConfigurationException {
        try {
            IwarpProviders.require();
        } catch (IwarpUnavailableException e) {
            throw new AgentConfigurationException(e.getMessage(), e);
        }
    }
}
