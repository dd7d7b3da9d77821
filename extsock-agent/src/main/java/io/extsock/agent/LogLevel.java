package io.extsock.agent;

/** What the agent prints on standard error. */
public enum LogLevel {
    /** Nothing. */
    OFF,
    /**
     * One line at start (the rules, fallback, what is hooked) and one at exit (how many connections
     * ran iWARP, fell back, stayed TCP by rule), with a hint after it when no connection matched
     * an iwarp rule.
     */
    INFO,
    /** INFO, and one line per connection: its peer, what became of it, and why. */
    DEBUG
}
