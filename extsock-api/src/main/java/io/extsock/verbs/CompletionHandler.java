package io.extsock.verbs;

/** Receives completions from {@link CompletionQueue#poll}. */
@FunctionalInterface
public interface CompletionHandler {

    /**
     * Receives one completion.
     *
     * @param completion the completion; the view is valid only during this call (copy it with
     *                   {@link WorkCompletion#of} to keep it)
     */
    void onCompletion(CompletionView completion);
}
