package io.extsock.agent.e2e.programs;

import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * An ordinary JMX client that knows nothing of extsock: it asks the JVM at 127.0.0.1:PORT (the
 * JDK's JMX agent, over RMI) for its process id and prints it. The JDK's RMI transport makes
 * its connections with java.net sockets, which the agent converts.
 *
 * <p>Usage: {@code JmxRuntimePid PORT}
 */
public final class JmxRuntimePid {

    private JmxRuntimePid() {
    }

    /**
     * @param arguments the JMX port
     * @throws Exception whatever JMX throws: the JVM then exits with status 1
     */
    public static void main(String[] arguments) throws Exception {
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + arguments[0] + "/jmxrmi");
        try (JMXConnector connector = JMXConnectorFactory.connect(url)) {
            Object pid = connector.getMBeanServerConnection().getAttribute(new ObjectName("java.lang:type=Runtime"), "Pid");
            System.out.println(pid);
        }
    }
}
