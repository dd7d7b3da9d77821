package io.extsock.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The documentation holds together: every relative link of README.md and of docs/ names a file
 * that exists and, after {@code #}, a heading of it (as GitHub makes anchors of headings); and
 * every page of docs/ is at most two clicks from the README.
 */
class ReadmeLinksTest {

    /** {@code [text](target)}, the target without a scheme. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

    @Test
    void everyRelativeLinkNamesAnExistingFileAndHeading() {
        List<String> broken = new ArrayList<>();
        for (Path document : Readme.documents()) {
            for (String target : links(document)) {
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                Path linked = file.isEmpty() ? document : document.getParent().resolve(file).normalize();
                if (!Files.exists(linked)) {
                    broken.add(where(document) + ": " + target + " (no such file)");
                } else if (target.contains("#") && linked.toString().endsWith(".md")
                        && !anchors(linked).contains(target.substring(target.indexOf('#') + 1))) {
                    broken.add(where(document) + ": " + target + " (no such heading in " + where(linked) + ")");
                }
            }
        }
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    @Test
    void everyPageOfDocsIsAtMostTwoClicksFromTheReadme() {
        Set<Path> oneClick = linkedPages(Readme.PATH);
        Set<Path> twoClicks = new HashSet<>(oneClick);
        for (Path page : oneClick) {
            twoClicks.addAll(linkedPages(page));
        }
        for (Path page : Readme.documents()) {
            if (!page.equals(Readme.PATH)) {
                assertTrue(twoClicks.contains(page), where(page) + " is more than two clicks from README.md");
            }
        }
    }

    private static Set<Path> linkedPages(Path document) {
        Set<Path> pages = new HashSet<>();
        for (String target : links(document)) {
            String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
            if (file.endsWith(".md")) {
                pages.add(document.getParent().resolve(file).normalize());
            }
        }
        return pages;
    }

    /** The document's relative link targets, outside its code blocks. */
    private static List<String> links(Path document) {
        List<String> targets = new ArrayList<>();
        boolean inCode = false;
        for (String line : Readme.text(document).lines().toList()) {
            if (line.startsWith("```")) {
                inCode = !inCode;
                continue;
            }
            if (inCode) {
                continue;
            }
            Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
            while (link.find()) {
                String target = link.group(1);
                if (!target.matches("[a-z]+:.*")) {
                    targets.add(target);
                }
            }
        }
        return targets;
    }

    /** The anchors GitHub makes of a document's headings: lower case, punctuation dropped, spaces as hyphens. */
    private static Set<String> anchors(Path document) {
        Set<String> anchors = new HashSet<>();
        boolean inCode = false;
        for (String line : Readme.text(document).lines().toList()) {
            if (line.startsWith("```")) {
                inCode = !inCode;
            } else if (!inCode && line.startsWith("#")) {
                String heading = line.replaceFirst("^#+\\s*", "").strip().toLowerCase(Locale.ROOT);
                anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }

    private static String where(Path document) {
        return Readme.ROOT.relativize(document).toString();
    }
}
