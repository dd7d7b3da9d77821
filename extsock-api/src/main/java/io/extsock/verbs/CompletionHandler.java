package io.extsock.verbs;

/** Receives completions from {@link CompletionQueue#poll}. */
@FunctionalInterface
public interface CompletionHandler {

    /** One completion; the view is valid only during this call. */
    void onCompletion(CompletionView completion);
}
