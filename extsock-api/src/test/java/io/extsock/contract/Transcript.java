package io.extsock.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a scenario observed, step by step: values, or the exception (class and message) a
 * step threw. Two socket kinds behave alike in a scenario when their transcripts are equal.
 */
public final class Transcript {

    /** A step of a scenario. */
    @FunctionalInterface
    public interface Step {
        Object run() throws Exception;
    }

    private final List<String> lines = new ArrayList<>();

    /** Records what the step returns, or the exception it throws. */
    public Object record(String label, Step step) {
        try {
            Object value = step.run();
            lines.add(label + " = " + value);
            return value;
        } catch (Exception e) {
            lines.add(label + " ! " + describe(e));
            return e;
        }
    }

    /** Records a value computed by the test itself. */
    public void note(String label, Object value) {
        lines.add(label + " = " + value);
    }

    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** The exception's class and message: what code written against Socket can tell apart. */
    public static String describe(Throwable e) {
        return e.getClass().getName() + ": " + e.getMessage();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Transcript && ((Transcript) o).lines.equals(lines);
    }

    @Override
    public int hashCode() {
        return Objects.hash(lines);
    }

    @Override
    public String toString() {
        return String.join("\n", lines);
    }
}
