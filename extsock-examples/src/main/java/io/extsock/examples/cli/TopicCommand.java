package io.extsock.examples.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** A command that only groups subcommands ({@code extsock echo}): run alone, it names them. */
public abstract class TopicCommand implements Runnable {

    @Spec
    public CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "missing subcommand: one of " + String.join(", ", spec.subcommands().keySet()));
    }
}
