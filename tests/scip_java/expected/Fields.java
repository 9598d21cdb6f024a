  package minimized;
  
//⌄ enclosing_range_start scip-java maven . . minimized/Fields#
  public class Fields {
//             ^^^^^^ definition scip-java maven . . minimized/Fields#
//                    kind Class
//                    display_name Fields
//                    signature_documentation
//                    > public class Fields
//             ^^^^^^ definition scip-java maven . . minimized/Fields#`<init>`().
//                    kind Constructor
//                    display_name <init>
//                    signature_documentation
//                    > public Fields()
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#privateField.
    private final int privateField = 0;
//                    ^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#privateField.
//                                 kind Field
//                                 display_name privateField
//                                 signature_documentation
//                                 > private final int privateField
//                                    ⌃ enclosing_range_end scip-java maven . . minimized/Fields#privateField.
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#protectedField.
    protected int protectedField = 0;
//                ^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#protectedField.
//                               kind Field
//                               display_name protectedField
//                               signature_documentation
//                               > protected int protectedField
//                                  ⌃ enclosing_range_end scip-java maven . . minimized/Fields#protectedField.
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#publicField.
    public int publicField = 0;
//             ^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#publicField.
//                         kind Field
//                         display_name publicField
//                         signature_documentation
//                         > public int publicField
//                            ⌃ enclosing_range_end scip-java maven . . minimized/Fields#publicField.
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#staticPrivateField.
    private static final int staticPrivateField = 0;
//                           ^^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#staticPrivateField.
//                                              kind StaticField
//                                              display_name staticPrivateField
//                                              signature_documentation
//                                              > private static final int staticPrivateField
//                                                 ⌃ enclosing_range_end scip-java maven . . minimized/Fields#staticPrivateField.
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#staticProtectedFields.
    protected static int staticProtectedFields = 0;
//                       ^^^^^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#staticProtectedFields.
//                                             kind StaticField
//                                             display_name staticProtectedFields
//                                             signature_documentation
//                                             > protected static int staticProtectedFields
//                                                ⌃ enclosing_range_end scip-java maven . . minimized/Fields#staticProtectedFields.
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#staticPublicField.
    public static int staticPublicField = 0;
//                    ^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#staticPublicField.
//                                      kind StaticField
//                                      display_name staticPublicField
//                                      signature_documentation
//                                      > public static int staticPublicField
//                                         ⌃ enclosing_range_end scip-java maven . . minimized/Fields#staticPublicField.
  
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#InnerFields#
    public class InnerFields {
//               ^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerFields#
//                           kind Class
//                           display_name InnerFields
//                           signature_documentation
//                           > public class InnerFields
//               ^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerFields#`<init>`().
//                           kind Constructor
//                           display_name <init>
//                           signature_documentation
//                           > public InnerFields()
//    ⌄ enclosing_range_start scip-java maven . . minimized/Fields#InnerFields#publicInnerField.
      public int publicInnerField = publicField;
//               ^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerFields#publicInnerField.
//                                kind Field
//                                display_name publicInnerField
//                                signature_documentation
//                                > public int publicInnerField
//                                  ^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#publicField.
//                                             ⌃ enclosing_range_end scip-java maven . . minimized/Fields#InnerFields#publicInnerField.
    }
//  ⌃ enclosing_range_end scip-java maven . . minimized/Fields#InnerFields#
  
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#InnerStaticFields#
    public static class InnerStaticFields {
//                      ^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerStaticFields#
//                                        kind Class
//                                        display_name InnerStaticFields
//                                        signature_documentation
//                                        > public static class InnerStaticFields
//                      ^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerStaticFields#`<init>`().
//                                        kind Constructor
//                                        display_name <init>
//                                        signature_documentation
//                                        > public InnerStaticFields()
//    ⌄ enclosing_range_start scip-java maven . . minimized/Fields#InnerStaticFields#publicNonStaticInnerField.
      public int publicNonStaticInnerField = 0;
//               ^^^^^^^^^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerStaticFields#publicNonStaticInnerField.
//                                         kind Field
//                                         display_name publicNonStaticInnerField
//                                         signature_documentation
//                                         > public int publicNonStaticInnerField
//                                            ⌃ enclosing_range_end scip-java maven . . minimized/Fields#InnerStaticFields#publicNonStaticInnerField.
//    ⌄ enclosing_range_start scip-java maven . . minimized/Fields#InnerStaticFields#publicStaticInnerField.
      public static int publicStaticInnerField = 0;
//                      ^^^^^^^^^^^^^^^^^^^^^^ definition scip-java maven . . minimized/Fields#InnerStaticFields#publicStaticInnerField.
//                                             kind StaticField
//                                             display_name publicStaticInnerField
//                                             signature_documentation
//                                             > public static int publicStaticInnerField
//                                                ⌃ enclosing_range_end scip-java maven . . minimized/Fields#InnerStaticFields#publicStaticInnerField.
    }
//  ⌃ enclosing_range_end scip-java maven . . minimized/Fields#InnerStaticFields#
  
//  ⌄ enclosing_range_start scip-java maven . . minimized/Fields#app().
    public static String app() {
//                ^^^^^^ reference scip-java maven jdk 17 java/lang/String#
//                       ^^^ definition scip-java maven . . minimized/Fields#app().
//                           kind StaticMethod
//                           display_name app
//                           signature_documentation
//                           > public static String app()
//    ⌄ enclosing_range_start local 0
      Fields fields = new Fields();
//    ^^^^^^ reference scip-java maven . . minimized/Fields#
//           ^^^^^^ definition local 0
//                  kind Variable
//                  display_name fields
//                  signature_documentation
//                  > Fields fields
//                        ^^^^^^ reference scip-java maven . . minimized/Fields#`<init>`().
//                                ⌃ enclosing_range_end local 0
//    ⌄ enclosing_range_start local 1
      InnerFields innerFields = fields.new InnerFields();
//    ^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerFields#
//                ^^^^^^^^^^^ definition local 1
//                            kind Variable
//                            display_name innerFields
//                            signature_documentation
//                            > InnerFields innerFields
//                              ^^^^^^ reference local 0
//                                         ^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerFields#`<init>`().
//                                                      ⌃ enclosing_range_end local 1
//    ⌄ enclosing_range_start local 2
      InnerStaticFields innerStaticFields = new InnerStaticFields();
//    ^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerStaticFields#
//                      ^^^^^^^^^^^^^^^^^ definition local 2
//                                        kind Variable
//                                        display_name innerStaticFields
//                                        signature_documentation
//                                        > InnerStaticFields innerStaticFields
//                                              ^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerStaticFields#`<init>`().
//                                                                 ⌃ enclosing_range_end local 2
      return String.valueOf(fields.privateField)
//           ^^^^^^ reference scip-java maven jdk 17 java/lang/String#
//                  ^^^^^^^ reference scip-java maven jdk 17 java/lang/String#valueOf(+5).
//                          ^^^^^^ reference local 0
//                                 ^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#privateField.
          + fields.protectedField
//          ^^^^^^ reference local 0
//                 ^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#protectedField.
          + fields.publicField
//          ^^^^^^ reference local 0
//                 ^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#publicField.
          + staticPrivateField
//          ^^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#staticPrivateField.
          + staticProtectedFields
//          ^^^^^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#staticProtectedFields.
          + staticPublicField
//          ^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#staticPublicField.
          + innerFields.publicInnerField
//          ^^^^^^^^^^^ reference local 1
//                      ^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerFields#publicInnerField.
          + InnerStaticFields.publicStaticInnerField
//          ^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerStaticFields#
//                            ^^^^^^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerStaticFields#publicStaticInnerField.
          + innerStaticFields.publicNonStaticInnerField;
//          ^^^^^^^^^^^^^^^^^ reference local 2
//                            ^^^^^^^^^^^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Fields#InnerStaticFields#publicNonStaticInnerField.
    }
//  ⌃ enclosing_range_end scip-java maven . . minimized/Fields#app().
  }
//⌃ enclosing_range_end scip-java maven . . minimized/Fields#
  
