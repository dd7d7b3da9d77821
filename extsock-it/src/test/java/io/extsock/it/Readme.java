package io.extsock.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The project's README.md, cut into its fenced code blocks and the headings they sit under. */
final class Readme {

    /** A fenced block: its info string ("java", "xml", ...), its text, where it starts. */
    record Block(String language, String text, int firstLine, String section) {

        List<String> lines() {
            return text.lines().toList();
        }
    }

    static final Path PATH = locate();

    private Readme() {
    }

    static String text() {
        try {
            return Files.readString(PATH);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every fenced block, in order; {@code firstLine} is the README line of its first content line. */
    static List<Block> blocks() {
        List<Block> blocks = new ArrayList<>();
        List<String> lines = text().lines().toList();
        String section = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("#")) {
                section = line.replaceFirst("^#+\\s*", "");
            }
            if (line.startsWith("```")) {
                String language = line.substring(3).trim();
                StringBuilder text = new StringBuilder();
                int first = i + 2;  // 1-based number of the line after the fence
                i++;
                while (i < lines.size() && !lines.get(i).startsWith("```")) {
                    text.append(lines.get(i)).append('\n');
                    i++;
                }
                blocks.add(new Block(language, text.toString(), first, section));
            }
        }
        return blocks;
    }

    /** The blocks of one language, in order. */
    static List<Block> blocks(String language) {
        return blocks().stream().filter(block -> block.language().equals(language)).toList();
    }

    /** The block that follows {@code block} with nothing but blank lines between, if any. */
    static Block followedBy(Block block) {
        List<Block> all = blocks();
        List<String> lines = text().lines().toList();
        for (int i = 0; i < all.size() - 1; i++) {
            if (all.get(i).firstLine() == block.firstLine()) {
                Block next = all.get(i + 1);
                int closingFence = block.firstLine() - 1 + block.lines().size();  // 0-based index
                boolean onlyBlank = true;
                for (int line = closingFence + 1; line < next.firstLine() - 2; line++) {
                    onlyBlank &= lines.get(line).isBlank();
                }
                return onlyBlank ? next : null;
            }
        }
        return null;
    }

    private static Path locate() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("README.md")) && Files.isDirectory(dir.resolve("extsock-api"))) {
                return dir.resolve("README.md");
            }
        }
        throw new IllegalStateException("README.md not found above " + Path.of("").toAbsolutePath());
    }
}
