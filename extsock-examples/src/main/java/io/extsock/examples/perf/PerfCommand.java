package io.extsock.examples.perf;

import io.extsock.examples.cli.TopicCommand;
import picocli.CommandLine.Command;

/** {@code extsock perf}: perftest's tests over the software iWARP engine and plain sockets. */
@Command(name = "perf", description = "perftest's latency and bandwidth tests (send, write, read) over IWARP_MODE, and tcp_lat, "
                + "tcp_rr, tcp_bw over sockets.",
        subcommands = {PerfServerCommand.class, PerfClientCommand.class, PerfCompareCommand.class})
public final class PerfCommand extends TopicCommand {
}
