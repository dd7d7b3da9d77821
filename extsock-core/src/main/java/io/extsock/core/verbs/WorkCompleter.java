package io.extsock.core.verbs;

import io.extsock.verbs.CompletionView;

/**
 * Where the completion of one work request goes: the connection's completion queue, a
 * future, or the engine's own stream layer. Called by whichever thread finished the request,
 * exactly once per request.
 */
public interface WorkCompleter {

    /** @param completion valid during this call only: read what you need before anything else */
    void complete(CompletionView completion);
}
