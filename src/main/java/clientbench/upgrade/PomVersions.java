package clientbench.upgrade;

import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The versions a Maven pom names: its {@code <dependencies>}, its {@code <dependencyManagement>} (an import there is a
 * BOM) and its {@code <parent>}, each {@code ${property}} taken from its own {@code <properties>} or its parent's.
 * Not read: a parent outside the repository (its properties stay {@code ${...}}), {@code project.*} values, a property
 * defined by another property, profiles and plugins' dependencies.
 */
final class PomVersions {

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}]+)}");
    private static final String DEFAULT_PARENT = "../pom.xml";

    private PomVersions() {
    }

    /**
     * Where in the repository the parent of the pom at {@code path} ({@code name} in messages) is: its
     * {@code <relativePath>}, by default the folder above; null for no parent, an empty relativePath (a parent from a
     * Maven repository) or one outside the tree.
     */
    static String parentPath(String pom, String name, String path) {
        Element parent = child(parse(pom, name), "parent");
        if (parent == null) {
            return null;
        }
        Element relative = child(parent, "relativePath");
        String rel = relative == null ? DEFAULT_PARENT : relative.getTextContent().strip();
        if (rel.isEmpty()) {
            return null;
        }
        Path folder = Path.of(path).getParent();
        Path p = (folder == null ? Path.of(rel) : folder.resolve(rel)).normalize();
        if (!p.toString().endsWith(".xml")) {
            p = p.resolve("pom.xml");
        }
        return p.startsWith("..") || p.isAbsolute() ? null : p.toString().replace('\\', '/');
    }

    /**
     * What {@code pom} ({@code name} in messages) names; {@code parentPom}, when not null, is the pom its
     * {@code <parent>} points to, whose properties it inherits if its groupId and artifactId are the parent's.
     */
    static Declared of(String pom, String name, String parentPom) {
        Element project = parse(pom, name);
        Map<String, String> properties = new HashMap<>();
        Element parent = child(project, "parent");
        if (parent != null && parentPom != null) {
            Element theirs = parse(parentPom, name + "'s parent");
            String group = text(theirs, "groupId"); // none: its own parent's
            if (text(theirs, "artifactId").equals(text(parent, "artifactId"))
                    && (group.isEmpty() || group.equals(text(parent, "groupId")))) {
                properties.putAll(properties(theirs));
            }
        }
        properties.putAll(properties(project));

        Map<String, String> versions = new LinkedHashMap<>();
        Set<String> boms = new HashSet<>();
        if (parent != null && !text(parent, "version").isEmpty()) {
            String module = module(parent, properties);
            versions.put(module, resolve(text(parent, "version"), properties));
            boms.add(module);
        }
        List<Element> dependencies = new ArrayList<>(children(child(project, "dependencies"), "dependency"));
        Element management = child(project, "dependencyManagement");
        dependencies.addAll(children(child(management, "dependencies"), "dependency"));
        for (Element d : dependencies) {
            String version = text(d, "version");
            if (version.isEmpty()) {
                continue; // managed: its BOM or parent is what moves
            }
            String module = module(d, properties);
            versions.putIfAbsent(module, resolve(version, properties));
            if ("import".equals(text(d, "scope"))) {
                boms.add(module);
            }
        }
        return new Declared(versions, boms);
    }

    private static Map<String, String> properties(Element project) {
        Map<String, String> properties = new HashMap<>();
        for (Element p : children(child(project, "properties"), null)) {
            properties.put(p.getLocalName(), p.getTextContent().strip());
        }
        return properties;
    }

    private static String module(Element e, Map<String, String> properties) {
        return resolve(text(e, "groupId"), properties) + ":" + resolve(text(e, "artifactId"), properties);
    }

    /** {@code value} with each {@code ${name}} that {@code properties} defines replaced, once. */
    static String resolve(String value, Map<String, String> properties) {
        Matcher m = PROPERTY.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(properties.getOrDefault(m.group(1), m.group())));
        }
        return m.appendTail(out).toString();
    }

    /** The document's root element, parsed with no DTD and no external entity: the file is another team's. */
    private static Element parse(String xml, String name) {
        try {
            DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
            f.setNamespaceAware(true);
            f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            f.setXIncludeAware(false);
            f.setExpandEntityReferences(false);
            DocumentBuilder builder = f.newDocumentBuilder();
            builder.setErrorHandler(new DefaultHandler()); // throws on a fatal error, prints nothing
            Element root = builder.parse(new InputSource(new StringReader(xml))).getDocumentElement();
            if (!"project".equals(root.getLocalName())) {
                throw new IllegalArgumentException(name + " is not a Maven pom: its root is <" + root.getLocalName()
                        + ">");
            }
            return root;
        } catch (SAXException | IOException e) {
            throw new IllegalArgumentException(name + " is not a readable pom: " + e.getMessage(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Element child(Element parent, String name) {
        List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.get(0);
    }

    /** The direct child elements of {@code parent} named {@code name} (every one for null); none for a null parent. */
    private static List<Element> children(Element parent, String name) {
        List<Element> all = new ArrayList<>();
        if (parent == null) {
            return all;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && (name == null || name.equals(e.getLocalName()))) {
                all.add(e);
            }
        }
        return all;
    }

    private static String text(Element parent, String name) {
        Element e = child(parent, name);
        return e == null ? "" : e.getTextContent().strip();
    }
}
