package io.extsock.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The project's documentation, README.md and the pages of docs/, each cut into its fenced code
 * blocks and the headings they sit under.
 */
final class Readme {

    /**
     * A fenced block: the document it is in, its info string ("java", "xml", ...), its text, where
     * it starts, and the heading it sits under.
     */
    record Block(Path document, String language, String text, int firstLine, String section) {

        List<String> lines() {
            return text.lines().toList();
        }

        /** {@code README.md line 42}, {@code docs/guide.md line 7}: where a reader finds it. */
        String where() {
            return ROOT.relativize(document) + " line " + firstLine;
        }
    }

    /** The README, at the repository's root. */
    static final Path PATH = locate();

    /** The repository's root. */
    static final Path ROOT = PATH.getParent();

    /** The folder of the documentation's other pages. */
    static final Path DOCS = ROOT.resolve("docs");

    private Readme() {
    }

    /** README.md first, then the pages of docs/ in name order. */
    static List<Path> documents() {
        List<Path> documents = new ArrayList<>();
        documents.add(PATH);
        try (Stream<Path> pages = Files.list(DOCS)) {
            pages.filter(page -> page.getFileName().toString().endsWith(".md")).sorted().forEach(documents::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + DOCS, e);
        }
        return documents;
    }

    static String text(Path document) {
        try {
            return Files.readString(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every fenced block of one document, in order; {@code firstLine} is the line of its first content line. */
    static List<Block> blocks(Path document) {
        List<Block> blocks = new ArrayList<>();
        List<String> lines = text(document).lines().toList();
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
                blocks.add(new Block(document, language, text.toString(), first, section));
            }
        }
        return blocks;
    }

    /** The blocks of one language in one document, in order. */
    static List<Block> blocks(Path document, String language) {
        return blocks(document).stream().filter(block -> block.language().equals(language)).toList();
    }

    /** The blocks of one language in every document, README.md's first. */
    static List<Block> blocksOfEveryDocument(String language) {
        return documents().stream().flatMap(document -> blocks(document, language).stream()).toList();
    }

    /** The block that follows {@code block} in its document with nothing but blank lines between, if any. */
    static Block followedBy(Block block) {
        List<Block> all = blocks(block.document());
        List<String> lines = text(block.document()).lines().toList();
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
