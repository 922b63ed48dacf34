<#-- THIRD-PARTY.md: mvn license:add-third-party renders it from each library's pom (pom.xml: license-maven-plugin). -->
<#list dependencyMap as e><#if e.getKey().artifactId == "jmh-core"><#assign jmh = e.getKey().version/></#if></#list>
# Third-party licences

clientbench's own code is under the Apache License 2.0 ([LICENSE](LICENSE)). The benchmark jar that `./bench` builds on
your machine, `target/benchmarks.jar`, also holds the ${dependencyMap?size} libraries below, each under the licence its
pom declares; where a pom names several, they are a choice, as Maven's POM reference reads them. The jar carries this
list and our licence in `META-INF/clientbench/`. Generated, not edited: `mvn license:add-third-party` writes it anew.

JMH (`org.openjdk.jmh:jmh-core`) is under the GPL version 2 with the Classpath Exception: the exception lets the jar
link JMH with code under other licences and be distributed under terms of its own choosing, while JMH's own classes in
it stay under the GPLv2: whoever passes the jar on passes them on under the GPLv2, with their source
(github.com/openjdk/jmh, tag ${jmh}).

| library | artifact | licence |
|---|---|---|
<#list dependencyMap as e>
<#assign p = e.getKey()/>
| ${p.name?replace("|", "/")} | `${p.groupId}:${p.artifactId}:${p.version}` | ${e.getValue()?join(" or ")} |
</#list>
