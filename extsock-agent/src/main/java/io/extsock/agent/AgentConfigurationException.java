package io.extsock.agent;

/**
 * A configuration the agent cannot start with: a bad argument or rules file. Its message is the
 * one line the agent prints before the JVM stops, and says what is wrong and where.
 */
public class AgentConfigurationException extends Exception {

    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, and where, in one line
     */
    public AgentConfigurationException(String message) {
        super(message);
    }

    /**
     * @param message what is wrong, and where, in one line
     * @param cause   the error behind it
     */
    public AgentConfigurationException(String message, Throwable cause) {
        super(message, cause);
    }
}
