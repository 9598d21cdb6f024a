// RefDump: the javac oracle for cross-file references (issue 5).
//
// Usage (Java 17+, source-file mode, no dependencies besides the JDK's jdk.compiler module):
//
//   java tests/javac/RefDump.java [--javadoc] [--classpath <jars>] [--sourcepath <dirs>] [--patch-module <m>=<dir>] <sourceRoot> [more roots...] > refs.tsv
//
// --classpath: the jars the sources compile against; --sourcepath: more source roots whose
// classes are read when used but not dumped; --patch-module: the roots are part of a JDK
// module whose sources are in <dir> (java.base=…/jdk-src/java.base), read instead of a
// source path.
//
// Parses and attributes (JavacTask.analyze(); -proc:none -Xlint:none -nowarn, -sourcepath = the
// roots, class files to a throw-away temp dir that is never written to) every .java file under
// the roots, then walks every compilation unit and prints one TSV line per reference, in source
// order, to a type, method, constructor or field:
//
//   relpath  line  column  kind  category  targetKey  origin
//
// relpath   path of the file relative to the root it was found under, with '/'
// line      1-based
// column    1-based, in UTF-16 code units from the start of the line (no tab expansion)
// kind      import | extends | implements | type | new | call | this-call | super-call |
//           field-read | field-write | annotation | method-ref | javadoc (informational)
// category  type | method | ctor | field            (enum constants are fields)
// targetKey type   -> qualified name, dots for nested types too (java.util.Map.Entry)
//           method -> Owner#name(p1,p2) with pi the erased declared parameter type, qualified,
//                     arrays (and varargs) as T[] (java.lang.String#isEmpty(),
//                     org.x.Foo#bar(java.lang.Object[],int))
//           ctor   -> Owner#OwnerSimpleName(p1,p2)
//           field  -> Owner#name
//           Owner is the declaration javac binds to (its enclosing type), not the receiver type.
// origin    source (declared in one of the compiled files) | binary
//
// Positions are those of the simple-name token naming the element: `a.b.Foo` -> at Foo,
// `x.foo()` -> at foo, `new a.b.Foo<>()` -> a type ref and a ctor ref, both at Foo,
// `this(..)`/`super(..)` -> ctor ref at the keyword, `Foo::bar` -> at bar, `Foo::new` -> ctor ref
// at new, `@Foo` -> at Foo, `import static a.b.Foo.bar;` -> type ref at Foo and one ref at bar
// per static member named bar that it imports (methods, fields, member types).
// An enum constant declaration `A(1)` / `A` / `A { .. }` -> ctor ref (kind new) at the constant's
// name to the enum constructor it invokes.
// `new Foo(..) { .. }` (anonymous class) -> type ref at Foo and a ctor ref at Foo to the
// constructor of Foo that the anonymous class's constructor invokes (none when Foo is an
// interface).
//
// Not emitted: packages, locals, parameters, exception/resource/pattern variables, type
// variables, primitives, `this`/`super` as receivers or qualifiers, members of arrays (`length`,
// `clone()`), `Foo.class` (the type ref Foo is kept), anything javac synthesized (implicit
// super() calls, default constructors, enum values()/valueOf(), record members and compact-ctor
// field assignments, types filled in for `var` and implicit lambda parameters), and every
// reference whose target is, or is a member of, a local or anonymous class (there is no
// qualified name for it). Every emitted position is checked against the source text: the name
// must be spelled there, otherwise the reference is dropped (this also drops the rare name
// written with unicode escapes).
//
// Calls to members javac declares implicitly are still references and are emitted: record
// accessors (`r.x()` -> R#x()), enum values()/valueOf(String) (-> E#values()), and members javac
// binds on Object for interface receivers (`iface.toString()` -> java.lang.Object#toString()).
// Annotation element names (`@A(level = 2)` -> A#level()) are method refs with kind annotation.
//
// --javadoc adds references from javadoc comments (every reference javac's DocTrees resolves:
// {@link}, {@linkplain}, @see, {@value}, @throws/@exception) with kind "javadoc": one line per
// reference, for its target only (at the member name after '#', else at the last segment of the
// type name); the class part of `Foo#bar` is reported too, as a reference to the type. Without --javadoc there are
// no javadoc lines.
//
// Output is sorted by (relpath, line, column, category, targetKey, kind) with duplicate lines
// removed. Compile errors go to stderr; whatever attributed is still dumped, and the exit status
// is then 1 (0 on a clean compile).

import com.sun.source.doctree.DocCommentTree;
import com.sun.source.doctree.LinkTree;
import com.sun.source.doctree.ReferenceTree;
import com.sun.source.doctree.SeeTree;
import com.sun.source.doctree.ThrowsTree;
import com.sun.source.doctree.ValueTree;
import com.sun.source.tree.*;
import com.sun.source.util.DocTreePath;
import com.sun.source.util.DocTreePathScanner;
import com.sun.source.util.DocTrees;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.Modifier;
import javax.lang.model.element.NestingKind;
import javax.lang.model.element.PackageElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.ArrayType;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.lang.model.util.Types;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticListener;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

public class RefDump {
    record Ref(String relpath, int line, int column, String kind, String category, String key, String origin, String caller) {
        String tsv() {
            String base = relpath + '\t' + line + '\t' + column + '\t' + kind + '\t' + category + '\t' + key + '\t' + origin;
            return caller == null ? base : base + '\t' + caller;
        }
    }

    public static void main(String[] args) throws IOException {
        boolean javadoc = false;
        boolean callers = false;
        String classpath = null;
        String extraSourcepath = null;
        String patchModule = null;
        List<Path> roots = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--javadoc")) javadoc = true;
            else if (a.equals("--callers")) callers = true;
            else if (a.equals("--classpath") && i + 1 < args.length) classpath = args[++i];
            else if (a.equals("--sourcepath") && i + 1 < args.length) extraSourcepath = args[++i];
            else if (a.equals("--patch-module") && i + 1 < args.length) patchModule = args[++i];
            else if (a.startsWith("-")) usage("unknown option " + a);
            else roots.add(Path.of(a).toAbsolutePath().normalize());
        }
        if (roots.isEmpty()) usage("no source root given");

        List<File> files = new ArrayList<>();
        for (Path root : roots) {
            if (!Files.isDirectory(root)) usage("not a directory: " + root);
            try (Stream<Path> s = Files.walk(root)) {
                s.filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
                        .sorted()
                        .forEach(p -> files.add(p.toFile()));
            }
        }

        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int[] errors = {0};
        PrintStream err = System.err;
        DiagnosticListener<JavaFileObject> listener = d -> {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errors[0]++;
                err.println(d.toString());
            }
        };
        Path outDir = Files.createTempDirectory("refdump");
        try (StandardJavaFileManager fm = compiler.getStandardFileManager(listener, Locale.ROOT, StandardCharsets.UTF_8)) {
            String sourcepath = roots.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
            if (extraSourcepath != null) sourcepath = sourcepath + File.pathSeparator + extraSourcepath;
            List<String> options = new ArrayList<>(List.of(
                    "-proc:none", "-Xlint:none", "-nowarn", "-implicit:none",
                    "-encoding", "UTF-8",
                    "-d", outDir.toString(),
                    // keep attributing every class even after errors
                    "-XDshould-stop.ifError=FLOW"));
            if (patchModule != null) {
                // A module's own sources (the JDK's java.base): the module's other classes are
                // read from its source tree, as `javac --patch-module` compiles the JDK.
                options.add("--patch-module");
                options.add(patchModule);
            } else {
                options.add("-sourcepath");
                options.add(sourcepath);
            }
            if (classpath != null) {
                options.add("-classpath");
                options.add(classpath);
            }
            JavacTask task = (JavacTask) compiler.getTask(null, fm, listener, options, null, fm.getJavaFileObjectsFromFiles(files));
            List<CompilationUnitTree> units = new ArrayList<>();
            task.parse().forEach(units::add);
            task.analyze();

            RefDump dump = new RefDump(task, roots, javadoc);
            dump.callers = callers;
            for (CompilationUnitTree cu : units) dump.collectTopLevel(cu);
            for (CompilationUnitTree cu : units) dump.scanUnit(cu);

            dump.refs.sort(Comparator.comparing(Ref::relpath)
                    .thenComparingInt(Ref::line)
                    .thenComparingInt(Ref::column)
                    .thenComparing(Ref::category)
                    .thenComparing(Ref::key)
                    .thenComparing(Ref::kind));
            StringBuilder out = new StringBuilder(dump.refs.size() * 80);
            String prev = null;
            for (Ref r : dump.refs) {
                String line = r.tsv();
                if (line.equals(prev)) continue;
                out.append(line).append('\n');
                prev = line;
            }
            System.out.write(out.toString().getBytes(StandardCharsets.UTF_8));
            System.out.flush();
        } finally {
            try (Stream<Path> s = Files.walk(outDir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        if (errors[0] > 0) {
            err.println("RefDump: " + errors[0] + " compile error(s); references dumped for what attributed");
            System.exit(1);
        }
    }

    static void usage(String msg) {
        System.err.println("RefDump: " + msg);
        System.err.println("usage: java RefDump.java [--javadoc] [--classpath <jars>] [--sourcepath <dirs>] <sourceRoot> [more roots...]");
        System.exit(2);
    }

    final DocTrees trees;
    final Elements elements;
    final Types types;
    final List<Path> roots;
    final boolean javadoc;
    /** --callers: an eighth column, the member each reference is written in. */
    boolean callers;
    final List<Ref> refs = new ArrayList<>();
    final Set<Element> sourceTopLevel = new HashSet<>();

    RefDump(JavacTask task, List<Path> roots, boolean javadoc) {
        this.trees = DocTrees.instance(task);
        this.elements = task.getElements();
        this.types = task.getTypes();
        this.roots = roots;
        this.javadoc = javadoc;
    }

    void collectTopLevel(CompilationUnitTree cu) {
        for (Tree t : cu.getTypeDecls()) {
            Element e = trees.getElement(TreePath.getPath(cu, t));
            if (e != null) sourceTopLevel.add(e);
        }
    }

    String relpath(CompilationUnitTree cu) {
        Path p = Path.of(cu.getSourceFile().toUri()).toAbsolutePath().normalize();
        for (Path root : roots) {
            if (p.startsWith(root)) return root.relativize(p).toString().replace(File.separatorChar, '/');
        }
        return p.toString().replace(File.separatorChar, '/');
    }

    void scanUnit(CompilationUnitTree cu) {
        CharSequence text;
        try {
            text = cu.getSourceFile().getCharContent(true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        new Scanner(cu, relpath(cu), text.toString()).scan(cu, null);
    }

    // ---------------------------------------------------------------- keys

    /** The chain from e up to its package is made of top-level and member types only. */
    boolean nameable(TypeElement t) {
        Element e = t;
        while (e instanceof TypeElement te) {
            if (te.getNestingKind() != NestingKind.TOP_LEVEL && te.getNestingKind() != NestingKind.MEMBER) return false;
            if (te.asType().getKind() == TypeKind.ERROR) return false;
            e = te.getEnclosingElement();
        }
        return e instanceof PackageElement;
    }

    String typeName(TypeMirror t) {
        TypeMirror er = types.erasure(t);
        switch (er.getKind()) {
            case ARRAY:
                return typeName(((ArrayType) er).getComponentType()) + "[]";
            case DECLARED: {
                TypeElement te = (TypeElement) ((DeclaredType) er).asElement();
                return te.getQualifiedName().toString();
            }
            case BOOLEAN: case BYTE: case SHORT: case INT: case LONG: case CHAR: case FLOAT: case DOUBLE: case VOID:
                return er.getKind().name().toLowerCase(Locale.ROOT);
            default:
                return er.toString();
        }
    }

    static String category(Element e) {
        switch (e.getKind()) {
            case CLASS: case INTERFACE: case ENUM: case ANNOTATION_TYPE: case RECORD:
                return "type";
            case METHOD:
                return "method";
            case CONSTRUCTOR:
                return "ctor";
            case FIELD: case ENUM_CONSTANT:
                return "field";
            default:
                return null;
        }
    }

    /** The key of e, or null when e is not something we report. */
    String key(Element e) {
        if (e == null || e.asType() == null || e.asType().getKind() == TypeKind.ERROR) return null;
        String cat = category(e);
        if (cat == null) return null;
        if (cat.equals("type")) {
            TypeElement t = (TypeElement) e;
            return nameable(t) ? t.getQualifiedName().toString() : null;
        }
        if (!(e.getEnclosingElement() instanceof TypeElement owner) || !nameable(owner)) return null;
        String o = owner.getQualifiedName().toString();
        if (cat.equals("field")) return o + "#" + e.getSimpleName();
        ExecutableElement m = (ExecutableElement) e;
        StringBuilder sb = new StringBuilder(o).append('#');
        sb.append(cat.equals("ctor") ? owner.getSimpleName() : m.getSimpleName()).append('(');
        boolean first = true;
        for (VariableElement p : m.getParameters()) {
            if (!first) sb.append(',');
            first = false;
            sb.append(typeName(p.asType()));
        }
        return sb.append(')').toString();
    }

    String origin(Element e) {
        Element top = e;
        while (top.getEnclosingElement() != null && !(top.getEnclosingElement() instanceof PackageElement)) {
            top = top.getEnclosingElement();
        }
        return sourceTopLevel.contains(top) ? "source" : "binary";
    }

    // ---------------------------------------------------------------- scanner

    class Scanner extends TreePathScanner<Void, Void> {
        final CompilationUnitTree cu;
        final String relpath;
        final String text;
        final SourcePositions pos;
        final int[] lineStarts;

        Scanner(CompilationUnitTree cu, String relpath, String text) {
            this.cu = cu;
            this.relpath = relpath;
            this.text = text;
            this.pos = trees.getSourcePositions();
            List<Integer> starts = new ArrayList<>();
            starts.add(0);
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) starts.add(i + 1);
            }
            lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
        }

        boolean nameAt(int p, String name) {
            if (p < 0 || p + name.length() > text.length() || !text.startsWith(name, p)) return false;
            int end = p + name.length();
            return (p == 0 || !Character.isJavaIdentifierPart(text.charAt(p - 1)))
                    && (end >= text.length() || !Character.isJavaIdentifierPart(text.charAt(end)));
        }

        /** Start of the token `name` that ends tree t (or is found searching backwards inside t). */
        int nameEndingAt(Tree t, String name) {
            long end = pos.getEndPosition(cu, t);
            long start = pos.getStartPosition(cu, t);
            if (end < 0) return -1;
            int p = (int) end - name.length();
            if (nameAt(p, name)) return p;
            for (int q = p - 1; q >= Math.max(0, start); q--) {
                if (nameAt(q, name)) return q;
            }
            return -1;
        }

        void emit(int p, String name, String kind, Element e) {
            if (p < 0 || !nameAt(p, name)) return;
            String k = key(e);
            if (k == null) return;
            int line = lineOf(p);
            refs.add(new Ref(relpath, line + 1, p - lineStarts[line] + 1, kind, category(e), k, origin(e),
                    callers ? callerOf(at != null ? at : getCurrentPath()) : null));
        }

        /**
         * The member of a named (top-level or member) class that the code at `path` is written
         * in: a method or constructor by its key, a field initializer, initializer block or enum
         * constant as the class's `#<clinit>` (static) or `#<init>` (instance); code in lambdas,
         * anonymous and local classes is their enclosing member's. "-" outside any member.
         */
        /** Where the reference being emitted is written, when not the path being visited. */
        TreePath at;

        String callerOf(TreePath path) {
            Tree below = null;
            for (TreePath p = path; p != null; p = p.getParentPath()) {
                Tree t = p.getLeaf();
                if (t instanceof ClassTree && trees.getElement(p) instanceof TypeElement te && nameable(te)) {
                    if (below == null) return "-";
                    String owner = te.getQualifiedName().toString();
                    if (below instanceof MethodTree) {
                        String k = key(trees.getElement(new TreePath(p, below)));
                        return k == null ? "-" : k;
                    }
                    boolean isStatic;
                    if (below instanceof VariableTree) {
                        Element ve = trees.getElement(new TreePath(p, below));
                        isStatic = ve != null && ve.getModifiers().contains(Modifier.STATIC);
                    } else if (below instanceof BlockTree b) {
                        isStatic = b.isStatic();
                    } else {
                        return "-";
                    }
                    return owner + (isStatic ? "#<clinit>" : "#<init>");
                }
                below = t;
            }
            return "-";
        }

        int lineOf(int p) {
            int lo = 0, hi = lineStarts.length - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (lineStarts[mid] <= p) lo = mid; else hi = mid - 1;
            }
            return lo;
        }

        // ------------------------------------------------------------ javadoc

        @Override
        public Void scan(Tree tree, Void v) {
            if (javadoc && tree != null && (tree instanceof ClassTree || tree instanceof MethodTree || tree instanceof VariableTree)) {
                TreePath p = new TreePath(getCurrentPath(), tree);
                DocCommentTree dc = trees.getDocCommentTree(p);
                if (dc != null) docRefs(p, dc);
            }
            return super.scan(tree, v);
        }

        void docRefs(TreePath declPath, DocCommentTree dc) {
            DocTreePath root = new DocTreePath(declPath, dc);
            var dpos = trees.getSourcePositions();
            new DocTreePathScanner<Void, Void>() {
                @Override
                public Void visitReference(ReferenceTree node, Void v) {
                    String sig = node.getSignature();
                    long start = dpos.getStartPosition(cu, dc, node);
                    if (start < 0) return null;
                    int qualified = sig.indexOf('#');
                    if (qualified > 0) qualifier(sig.substring(0, qualified), (int) start);
                    Element e = trees.getElement(getCurrentPath());
                    if (e == null) return null;
                    // the simple name of the target inside the signature: after '#', else the last
                    // segment of the type name
                    int hash = sig.indexOf('#');
                    int nameStart;
                    String name;
                    if (hash >= 0) {
                        int paren = sig.indexOf('(', hash);
                        name = sig.substring(hash + 1, paren < 0 ? sig.length() : paren).trim();
                        nameStart = hash + 1;
                    } else {
                        int paren = sig.indexOf('(');
                        String typePart = paren < 0 ? sig : sig.substring(0, paren);
                        int dot = typePart.lastIndexOf('.');
                        name = typePart.substring(dot + 1).trim();
                        nameStart = dot + 1;
                    }
                    String spelled = e.getKind() == ElementKind.CONSTRUCTOR ? e.getEnclosingElement().getSimpleName().toString() : e.getSimpleName().toString();
                    if (!name.equals(spelled)) return null;
                    int p = (int) start + nameStart;
                    while (p < text.length() && Character.isWhitespace(text.charAt(p))) p++;
                    emit(p, name, "javadoc", e);
                    return null;
                }

                /** The class part of `Type#member`, resolved as a reference of its own. */
                void qualifier(String typePart, int start) {
                    if (typePart.contains("/") || !typePart.equals(typePart.trim())) return;
                    ReferenceTree ref = trees.getDocTreeFactory().newReferenceTree(typePart);
                    Element te = trees.getElement(new DocTreePath(getCurrentPath().getParentPath(), ref));
                    if (te == null || !(te.getKind().isClass() || te.getKind().isInterface())) return;
                    int dot = typePart.lastIndexOf('.');
                    String name = typePart.substring(dot + 1);
                    if (!name.equals(te.getSimpleName().toString())) return;
                    emit(start + dot + 1, name, "javadoc", te);
                }
            }.scan(root, null);
        }

        // ------------------------------------------------------------ structure

        @Override
        public Void visitCompilationUnit(CompilationUnitTree node, Void v) {
            // skip the package clause (packages are not reported) but keep its annotations
            if (node.getPackage() != null) scan(node.getPackage().getAnnotations(), null);
            scan(node.getImports(), null);
            scan(node.getTypeDecls(), null);
            return null;
        }

        @Override
        public Void visitImport(ImportTree node, Void v) {
            Tree q = node.getQualifiedIdentifier();
            if (!(q instanceof MemberSelectTree ms)) return null;
            TreePath qp = new TreePath(getCurrentPath(), q);
            TreePath ownerPath = new TreePath(qp, ms.getExpression());
            if (node.isStatic()) {
                // import static a.b.Foo.bar;  /  import static a.b.Foo.*;
                qualifier(ownerPath);
                String name = ms.getIdentifier().toString();
                if (name.equals("*")) return null;
                Element owner = trees.getElement(ownerPath);
                if (!(owner instanceof TypeElement te)) return null;
                int p = nameEndingAt(q, name);
                for (Element m : elements.getAllMembers(te)) {
                    if (m.getSimpleName().contentEquals(name) && m.getModifiers().contains(Modifier.STATIC)
                            && m.getKind() != ElementKind.CONSTRUCTOR) {
                        emit(p, name, "import", m);
                    }
                }
            } else if (ms.getIdentifier().contentEquals("*")) {
                qualifier(ownerPath); // import a.b.Outer.*; still names Outer
            } else {
                qualifier(qp);
            }
            return null;
        }

        /** A qualified name in an import: report every type along it. */
        void qualifier(TreePath p) {
            Tree t = p.getLeaf();
            Element e = trees.getElement(p);
            if (t instanceof MemberSelectTree ms) {
                qualifier(new TreePath(p, ms.getExpression()));
                if (e != null && category(e) != null) emit(nameEndingAt(t, ms.getIdentifier().toString()), ms.getIdentifier().toString(), "import", e);
            } else if (t instanceof IdentifierTree id) {
                if (e != null && category(e) != null) emit((int) pos.getStartPosition(cu, t), id.getName().toString(), "import", e);
            }
        }

        @Override
        public Void visitClass(ClassTree node, Void v) {
            Element ce = trees.getElement(getCurrentPath());
            if (ce != null && ce.getKind() == ElementKind.ENUM) {
                // enum constant declarations invoke a constructor
                for (Tree m : node.getMembers()) {
                    if (m instanceof VariableTree vt && vt.getInitializer() instanceof NewClassTree nc) {
                        TreePath vp = new TreePath(getCurrentPath(), vt);
                        Element ve = trees.getElement(vp);
                        if (ve == null || ve.getKind() != ElementKind.ENUM_CONSTANT) continue;
                        Element ctor = trees.getElement(new TreePath(vp, nc));
                        if (nc.getClassBody() != null) ctor = anonymousSuperCtor(new TreePath(vp, nc), nc.getClassBody());
                        // written in the constant's declaration (the enum's static initialisation)
                        at = vp;
                        if (ctor != null) emit(namePos(vp), vt.getName().toString(), "new", ctor);
                        at = null;
                    }
                }
            }
            if (getCurrentPath().getParentPath().getLeaf() instanceof NewClassTree) {
                // an anonymous class: its extends/implements clause is the `new` expression's
                // identifier, already scanned there
                scan(node.getModifiers(), null);
                scan(node.getMembers(), null);
                return null;
            }
            return super.visitClass(node, v);
        }

        int namePos(TreePath declPath) {
            // the preferred position of a declaration is its name
            Tree t = declPath.getLeaf();
            long start = pos.getStartPosition(cu, t);
            String name = t instanceof VariableTree vt ? vt.getName().toString() : "";
            // search forward from the start for the name (annotations/modifiers/type come first)
            long end = pos.getEndPosition(cu, t);
            for (int q = (int) Math.max(0, start); q >= 0 && q < text.length() && (end < 0 || q < end); q++) {
                if (nameAt(q, name)) {
                    // skip occurrences inside the type part: the name is followed by '(' , ',' ';' '{' or '=' or end
                    return q;
                }
            }
            return -1;
        }

        @Override
        public Void visitMethod(MethodTree node, Void v) {
            Element e = trees.getElement(getCurrentPath());
            if (e != null && elements.getOrigin(e) != Elements.Origin.EXPLICIT) return null;
            if (pos.getStartPosition(cu, node) < 0) return null;
            return super.visitMethod(node, v);
        }

        @Override
        public Void visitVariable(VariableTree node, Void v) {
            scan(node.getModifiers(), null);
            Tree type = node.getType();
            if (type != null && !syntheticType(node, type)) scan(type, null);
            scan(node.getNameExpression(), null);
            scan(node.getInitializer(), null);
            return null;
        }

        /** `var x = ..` and implicit lambda parameters get a type tree javac made up (at NOPOS). */
        boolean syntheticType(VariableTree node, Tree type) {
            return pos.getStartPosition(cu, type) < 0;
        }

        // ------------------------------------------------------------ references

        @Override
        public Void visitIdentifier(IdentifierTree node, Void v) {
            String name = node.getName().toString();
            Element e = trees.getElement(getCurrentPath());
            if (e == null) return null;
            if (name.equals("this") || name.equals("super")) {
                if (e.getKind() == ElementKind.CONSTRUCTOR) {
                    emit((int) pos.getStartPosition(cu, node), name, name + "-call", e);
                }
                return null;
            }
            emit((int) pos.getStartPosition(cu, node), name, kindOf(getCurrentPath(), e), e);
            return null;
        }

        @Override
        public Void visitMemberSelect(MemberSelectTree node, Void v) {
            super.visitMemberSelect(node, v);
            String name = node.getIdentifier().toString();
            if (name.equals("class")) return null;
            Element e = trees.getElement(getCurrentPath());
            if (e == null) return null;
            if (name.equals("this") || name.equals("super")) {
                if (e.getKind() == ElementKind.CONSTRUCTOR) emit(nameEndingAt(node, name), name, name + "-call", e);
                return null;
            }
            TypeMirror rt = trees.getTypeMirror(new TreePath(getCurrentPath(), node.getExpression()));
            if (rt != null && rt.getKind() == TypeKind.ARRAY && !isObjectMember(e)) return null;
            emit(nameEndingAt(node, name), name, kindOf(getCurrentPath(), e), e);
            return null;
        }

        boolean isObjectMember(Element e) {
            return e.getEnclosingElement() instanceof TypeElement te && te.getQualifiedName().contentEquals("java.lang.Object");
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void v) {
            super.visitNewClass(node, v);
            Tree id = node.getIdentifier();
            while (true) {
                if (id instanceof ParameterizedTypeTree pt) id = pt.getType();
                else if (id instanceof AnnotatedTypeTree at) id = at.getUnderlyingType();
                else break;
            }
            Element ctor;
            if (node.getClassBody() != null) ctor = anonymousSuperCtor(getCurrentPath(), node.getClassBody());
            else ctor = trees.getElement(getCurrentPath());
            if (ctor == null || ctor.getKind() != ElementKind.CONSTRUCTOR) return null;
            if (id instanceof IdentifierTree it) {
                emit((int) pos.getStartPosition(cu, it), it.getName().toString(), "new", ctor);
            } else if (id instanceof MemberSelectTree ms) {
                emit(nameEndingAt(ms, ms.getIdentifier().toString()), ms.getIdentifier().toString(), "new", ctor);
            }
            return null;
        }

        /** The superclass constructor that the anonymous class's (generated) constructor calls. */
        Element anonymousSuperCtor(TreePath newPath, ClassTree body) {
            TreePath bodyPath = new TreePath(newPath, body);
            TypeElement anon = (TypeElement) trees.getElement(bodyPath);
            if (anon == null) return null;
            for (Tree m : body.getMembers()) {
                if (!(m instanceof MethodTree mt) || mt.getBody() == null) continue;
                TreePath mp = new TreePath(bodyPath, mt);
                Element me = trees.getElement(mp);
                if (me == null || me.getKind() != ElementKind.CONSTRUCTOR) continue;
                for (StatementTree st : mt.getBody().getStatements()) {
                    if (st instanceof ExpressionStatementTree es && es.getExpression() instanceof MethodInvocationTree mi) {
                        TreePath sp = new TreePath(new TreePath(new TreePath(mp, mt.getBody()), st), mi);
                        Element c = trees.getElement(new TreePath(sp, mi.getMethodSelect()));
                        if (c != null && c.getKind() == ElementKind.CONSTRUCTOR) {
                            TypeMirror sup = anon.getSuperclass();
                            // an anonymous implementation of an interface calls Object(): not a reference
                            if (anon.getInterfaces().size() == 1 && sup.getKind() == TypeKind.DECLARED
                                    && ((TypeElement) ((DeclaredType) sup).asElement()).getQualifiedName().contentEquals("java.lang.Object")) {
                                return null;
                            }
                            return c;
                        }
                    }
                }
            }
            // fall back: the constructor javac recorded on the expression, if it is not the anonymous one
            Element c = trees.getElement(newPath);
            if (c != null && c.getEnclosingElement() != anon) return c;
            return null;
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void v) {
            super.visitMemberReference(node, v);
            Element e = trees.getElement(getCurrentPath());
            if (e == null) return null;
            TypeMirror qt = trees.getTypeMirror(new TreePath(getCurrentPath(), node.getQualifierExpression()));
            if (qt != null && qt.getKind() == TypeKind.ARRAY && !isObjectMember(e)) return null;
            String name = node.getMode() == MemberReferenceTree.ReferenceMode.NEW ? "new" : node.getName().toString();
            emit(nameEndingAt(node, name), name, "method-ref", e);
            return null;
        }

        String kindOf(TreePath path, Element e) {
            String cat = category(e);
            if (cat == null) return "";
            // climb over the wrappers of a type use: Foo<..>, @A Foo, Outer.Inner (we are the whole select)
            Tree leaf = path.getLeaf();
            TreePath p = path.getParentPath();
            while (p != null) {
                Tree t = p.getLeaf();
                if (t instanceof ParameterizedTypeTree pt && pt.getType() == leaf
                        || t instanceof AnnotatedTypeTree at && at.getUnderlyingType() == leaf) {
                    leaf = t;
                    p = p.getParentPath();
                } else break;
            }
            Tree parent = p == null ? null : p.getLeaf();
            if (parent instanceof ClassTree ct) {
                if (ct.getExtendsClause() == leaf) return "extends";
                if (ct.getImplementsClause().contains(leaf)) {
                    return ct.getKind() == Tree.Kind.INTERFACE || ct.getKind() == Tree.Kind.ANNOTATION_TYPE ? "extends" : "implements";
                }
            }
            if (parent instanceof AnnotationTree an && an.getAnnotationType() == leaf) return "annotation";
            if (parent instanceof NewClassTree nc && nc.getIdentifier() == leaf) return "new";
            if (cat.equals("method")) {
                if (parent instanceof MethodInvocationTree mi && mi.getMethodSelect() == leaf) return "call";
                // an annotation element name: @A(value = ..)
                return "annotation";
            }
            if (cat.equals("field")) {
                if (parent instanceof AssignmentTree as && as.getVariable() == leaf) return "field-write";
                if (parent instanceof CompoundAssignmentTree cas && cas.getVariable() == leaf) return "field-write";
                if (parent instanceof UnaryTree u && u.getExpression() == leaf) {
                    switch (u.getKind()) {
                        case PREFIX_INCREMENT: case PREFIX_DECREMENT: case POSTFIX_INCREMENT: case POSTFIX_DECREMENT:
                            return "field-write";
                        default:
                    }
                }
                return "field-read";
            }
            return "type";
        }
    }
}
