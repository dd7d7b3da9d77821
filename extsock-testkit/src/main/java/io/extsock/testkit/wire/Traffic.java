package io.extsock.testkit.wire;

/**
 * Whatever makes the traffic a capture is for, run once per capture attempt: a capture that
 * missed segments is taken again with the traffic made again, so it must be repeatable and
 * start from scratch each time.
 */
@FunctionalInterface
public interface Traffic {

    /**
     * Makes the traffic, to its end.
     *
     * @param output where to tell what happened; it goes into the verdict's report
     * @return an exit code: 0 when the traffic went as it should
     * @throws Exception a failure, which fails the verdict (exit code -1) with its stack trace in the report
     */
    int run(StringBuilder output) throws Exception;
}
