package io.extsock.examples.file;

import io.extsock.examples.cli.TopicCommand;
import picocli.CommandLine.Command;

/** {@code extsock file}: serve a file, get it, by stream or one-sided RDMA, SHA-256 verified. */
@Command(name = "file", description = "File transfer over IWARP_MODE (stream, RDMA Write or RDMA Read) or plain TCP, "
                + "SHA-256 verified; never a half-written file under the final name.",
        subcommands = {FileServeCommand.class, FileGetCommand.class})
public final class FileCommand extends TopicCommand {
}
