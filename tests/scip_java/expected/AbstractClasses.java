  package minimized;
  
//⌄ enclosing_range_start scip-java maven . . minimized/AbstractClasses#
  public abstract class AbstractClasses {
//                      ^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/AbstractClasses#
//                                      kind Class
//                                      display_name AbstractClasses
//                                      signature_documentation
//                                      > public abstract class AbstractClasses
//                      ^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/AbstractClasses#`<init>`().
//                                      kind Constructor
//                                      display_name <init>
//                                      signature_documentation
//                                      > public AbstractClasses()
//  ⌄ enclosing_range_start scip-java maven . . minimized/AbstractClasses#defaultImplementation().
    public String defaultImplementation() {
//         ^^^^^^ reference scip-java maven jdk 17 java/lang/String#
//                ^^^^^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/AbstractClasses#defaultImplementation().
//                                      kind Method
//                                      display_name defaultImplementation
//                                      signature_documentation
//                                      > public String defaultImplementation()
      return "";
    }
//  ⌃ enclosing_range_end scip-java maven . . minimized/AbstractClasses#defaultImplementation().
  
//  ⌄ enclosing_range_start scip-java maven . . minimized/AbstractClasses#abstractImplementation().
    public abstract String abstractImplementation();
//                  ^^^^^^ reference scip-java maven jdk 17 java/lang/String#
//                         ^^^^^^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/AbstractClasses#abstractImplementation().
//                                                kind AbstractMethod
//                                                display_name abstractImplementation
//                                                signature_documentation
//                                                > public abstract String abstractImplementation()
//                                                relationship scip-java maven . . minimized/SubClasses#abstractImplementation(). implementation reference
//                                                 ⌃ enclosing_range_end scip-java maven . . minimized/AbstractClasses#abstractImplementation().
  }
//⌃ enclosing_range_end scip-java maven . . minimized/AbstractClasses#
  
