package io.extsock.examples.file;

import io.extsock.examples.cli.UserError;
import io.extsock.examples.cli.UserErrors;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A file being received: written under a temporary name beside its final one, renamed over it
 * atomically only after verification, deleted on any failure, including Ctrl-C. So no reader
 * ever sees a half-written file under the final name.
 */
final class PartFile implements AutoCloseable {

    private final Path target;
    private final Path part;
    private final boolean replace;
    private final Thread deleteOnInterrupt;
    private boolean committed;

    private PartFile(Path target, Path part, boolean replace) {
        this.target = target;
        this.part = part;
        this.replace = replace;
        this.deleteOnInterrupt = new Thread(this::deleteQuietly, "delete " + part.getFileName());
        Runtime.getRuntime().addShutdownHook(deleteOnInterrupt);
    }

    /**
     * Creates the temporary file for {@code target}, in the same directory (so the rename is
     * atomic: same file system).
     *
     * @throws UserError if the directory is missing, or the target exists and may not be replaced
     */
    static PartFile create(Path target, boolean replace) {
        Path directory = target.toAbsolutePath().getParent();
        if (!Files.isDirectory(directory)) {
            throw new UserError("no such directory: " + directory);
        }
        if (!replace && Files.exists(target)) {
            throw new UserError(target + " already exists (add --force to replace it)");
        }
        for (int attempt = 0; ; attempt++) {
            Path part = directory.resolve("." + target.getFileName() + "."
                    + Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16) + ".extsock-part");
            // The hook first: a Ctrl-C right after the file appears must find it registered.
            PartFile file = new PartFile(target, part, replace);
            try {
                Files.createFile(part);
                return file;
            } catch (FileAlreadyExistsException e) {
                file.committed = true;  // not ours: never delete it
                file.close();
                if (attempt > 10) {
                    throw UserErrors.file(part.toString(), e);
                }
            } catch (IOException e) {
                file.committed = true;
                file.close();
                throw UserErrors.file(directory.toString(), e);
            }
        }
    }

    /** Where the bytes go until {@link #commit}. */
    Path path() {
        return part;
    }

    Path target() {
        return target;
    }

    /** Renames the verified file to its final name, atomically. */
    void commit() throws IOException {
        if (!replace && Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString(), null, "appeared during the transfer");
        }
        Files.move(part, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        committed = true;
    }

    /** Deletes the temporary file unless it was committed. */
    @Override
    public void close() {
        if (!committed) {
            deleteQuietly();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(deleteOnInterrupt);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs (or ran) anyway
        }
    }

    private void deleteQuietly() {
        if (committed) {
            return;
        }
        try {
            Files.deleteIfExists(part);
        } catch (NoSuchFileException ignored) {
            // already gone
        } catch (IOException ignored) {
            // nothing more we can do; the name says what it is
        }
    }
}
