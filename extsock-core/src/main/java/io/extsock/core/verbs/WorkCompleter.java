package io.extsock.core.verbs;

import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.WorkOpcode;

/**
 * Where the completion of one work request goes: the connection's completion queue, a
 * future, or the engine's own stream layer. Called by whichever thread finished the request,
 * exactly once per request.
 */
public interface WorkCompleter {

    void complete(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength, boolean solicited,
                  int invalidatedStag, String detail);

    /**
     * As above, with the failure's cause as a value; the queue pair calls this one. Completers
     * that keep no cause (the stream's) need not override it.
     */
    default void complete(long tag, WorkOpcode opcode, CompletionStatus status, long byteLength, boolean solicited,
                          int invalidatedStag, String detail, CompletionCause cause) {
        complete(tag, opcode, status, byteLength, solicited, invalidatedStag, detail);
    }
}
