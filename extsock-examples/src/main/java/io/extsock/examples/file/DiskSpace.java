package io.extsock.examples.file;

import io.extsock.examples.cli.Units;
import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Checks before a transfer that the file fits, so that a full disk fails it before it starts. */
final class DiskSpace {

    private DiskSpace() {
    }

    static void require(Path target, long bytes) {
        Path directory = target.toAbsolutePath().getParent();
        long free;
        try {
            free = Files.getFileStore(directory).getUsableSpace();
        } catch (IOException e) {
            throw UserErrors.file(directory.toString(), e);
        }
        if (bytes > free) {
            throw new UserError("no space left on device writing " + target + " (needs " + Units.bytes(bytes) + ", "
                    + Units.bytes(free) + " free)");
        }
    }
}
