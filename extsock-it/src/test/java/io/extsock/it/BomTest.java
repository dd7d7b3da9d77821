package io.extsock.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * extsock-bom has no parent (so that importing it hands users nothing but extsock's own
 * versions), so nothing keeps it in step with the build but this test: it lists exactly the
 * modules that are published (those that do not set maven.deploy.skip, whether every JDK builds
 * them or only a profile's), at the build's version,
 * and repeats the parent's metadata that Maven Central requires.
 */
class BomTest {

    private static final Path ROOT = Readme.PATH.getParent();

    @Test
    void theBomListsEveryPublishedModuleAndNothingElse() throws Exception {
        Document parent = parse(ROOT.resolve("pom.xml"));
        Document bom = parse(ROOT.resolve("extsock-bom/pom.xml"));
        String version = text(parent.getDocumentElement(), "version");
        assertEquals(version, text(bom.getDocumentElement(), "version"), "the BOM's version");
        assertEquals(System.getProperty("extsock.version"), version);

        TreeSet<String> published = new TreeSet<>();
        for (Element module : modules(parent.getDocumentElement())) {
            String name = module.getTextContent().trim();
            String pom = Files.readString(ROOT.resolve(name).resolve("pom.xml"));
            if (!name.equals("extsock-bom") && !pom.contains("<maven.deploy.skip>true</maven.deploy.skip>")) {
                published.add(name);
            }
        }
        assertEquals(new TreeSet<>(List.of("extsock-api", "extsock-core", "extsock-rdma")), published,
                "the published modules changed: update extsock-bom, the README and this test");

        TreeSet<String> listed = new TreeSet<>();
        Element managed = child(child(bom.getDocumentElement(), "dependencyManagement"), "dependencies");
        for (Element dependency : children(managed, "dependency")) {
            assertEquals("io.extsock", text(dependency, "groupId"));
            assertEquals("${project.version}", text(dependency, "version"));
            listed.add(text(dependency, "artifactId"));
        }
        assertEquals(published, listed, "extsock-bom's dependencyManagement");
    }

    @Test
    void theBomCarriesTheParentsMetadata() throws Exception {
        Element parent = parse(ROOT.resolve("pom.xml")).getDocumentElement();
        Element bom = parse(ROOT.resolve("extsock-bom/pom.xml")).getDocumentElement();
        assertEquals(null, child(bom, "parent"), "a BOM with a parent hands its users the parent's dependencyManagement");
        for (String element : List.of("url", "inceptionYear", "licenses", "developers", "scm", "organization",
                "issueManagement")) {
            assertTrue(child(parent, element) != null, "the parent pom lacks <" + element + ">");
            assertEquals(normalized(child(parent, element)), normalized(child(bom, element)),
                    "<" + element + "> differs between pom.xml and extsock-bom/pom.xml");
        }
        assertEquals(property(parent, "project.build.outputTimestamp"), property(bom, "project.build.outputTimestamp"));
    }

    @Test
    void everyPluginVersionOfTheBomIsTheParents() throws IOException {
        String parent = Files.readString(ROOT.resolve("pom.xml"));
        String bom = Files.readString(ROOT.resolve("extsock-bom/pom.xml"));
        Pattern plugin = Pattern.compile(
                "<artifactId>(maven-[a-z-]+-plugin)</artifactId>\\s*<version>([^<]+)</version>");
        Matcher inBom = plugin.matcher(bom);
        List<String> checked = new ArrayList<>();
        while (inBom.find()) {
            Matcher inParent = Pattern.compile("<artifactId>" + Pattern.quote(inBom.group(1))
                    + "</artifactId>\\s*<version>([^<]+)</version>").matcher(parent);
            assertTrue(inParent.find(), inBom.group(1) + " is not in the parent pom");
            assertEquals(inParent.group(1), inBom.group(2), inBom.group(1) + "'s version");
            checked.add(inBom.group(1));
        }
        assertTrue(checked.size() >= 4, "plugins found in the BOM: " + checked);
    }

    private static Document parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(false);
        return factory.newDocumentBuilder().parse(pom.toFile());
    }

    /** The reactor's modules, with those that a profile adds (extsock-rdma, on JDK 22 and later). */
    private static List<Element> modules(Element project) {
        List<Element> modules = new ArrayList<>(children(child(project, "modules"), "module"));
        Element profiles = child(project, "profiles");
        for (Element profile : profiles == null ? List.<Element>of() : children(profiles, "profile")) {
            Element listed = child(profile, "modules");
            if (listed != null) {
                modules.addAll(children(listed, "module"));
            }
        }
        return modules;
    }

    private static Element child(Element parent, String name) {
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && element.getTagName().equals(name)) {
                return element;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            if (nodes.item(i) instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }

    private static String text(Element parent, String name) {
        Element element = child(parent, name);
        return element == null ? null : element.getTextContent().trim();
    }

    private static String property(Element project, String name) {
        return text(child(project, "properties"), name);
    }

    /** The element's text content with whitespace runs collapsed (attributes aside). */
    private static String normalized(Element element) {
        return element == null ? null : element.getTextContent().replaceAll("\\s+", " ").trim();
    }
}
