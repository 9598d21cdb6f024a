  package minimized;
  
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#HelloBuilder#build().
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#builder().
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#HelloBuilder#toString().
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#HelloBuilder#
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#HelloBuilder#`<init>`().
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#`<init>`().
//⌄ enclosing_range_start local 0
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#HelloBuilder#message.
//⌄ enclosing_range_start scip-java maven . . minimized/Hello#HelloBuilder#message().
//⌄ enclosing_range_start local 1
  @lombok.Builder
//^^^^^^^^^^^^^^^ reference scip-java maven jdk 17 java/lang/SuppressWarnings#
//^^^^^^^^^^^^^^^ reference scip-java maven . . java/lang/
//^^^^^^^^^^^^^^^ reference scip-java maven . . java/
//^^^^^^^^^^^^^^^ reference scip-java maven . . lombok/Generated#
//^^^^^^^^^^^^^^^ reference scip-java maven . . lombok/
//^^^^^^^^^^^^^^^ reference scip-java maven jdk 17 java/lang/String#
//^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Hello#message.
//^^^^^^^^^^^^^^^ reference local 0
//^^^^^^^^^^^^^^^ reference scip-java maven jdk 17 java/lang/SuppressWarnings#value().
//^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Hello#HelloBuilder#
//^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Hello#
//^^^^^^^^^^^^^^^ reference scip-java maven . . minimized/Hello#HelloBuilder#message.
//^^^^^^^^^^^^^^^ reference local 1
//^^^^^^^^^^^^^^^ reference scip-java maven jdk 17 java/lang/Override#
// ^^^^^^ reference scip-java maven . . lombok/
//        ^^^^^^^ reference scip-java maven . . lombok/Builder#
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#HelloBuilder#build().
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#builder().
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#HelloBuilder#toString().
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#HelloBuilder#
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#HelloBuilder#`<init>`().
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#`<init>`().
//              ⌃ enclosing_range_end local 0
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#HelloBuilder#message.
//              ⌃ enclosing_range_end scip-java maven . . minimized/Hello#HelloBuilder#message().
//              ⌃ enclosing_range_end local 1
  class Hello {
//      ^^^^^ definition scip-java maven . . minimized/Hello#
//            kind Class
//            display_name Hello
//            signature_documentation
//            > @Builder
//            > class Hello
//      ^^^^^ definition scip-java maven . . minimized/Hello#`<init>`().
//            kind Constructor
//            display_name <init>
//            signature_documentation
//            > @SuppressWarnings("all")
//            > @Generated
//            > Hello(String message)
//      ^^^^^ reference scip-java maven . . minimized/Hello#`<init>`().
//  ⌄ enclosing_range_start scip-java maven . . minimized/Hello#message.
    private String message;
//          ^^^^^^ reference scip-java maven jdk 17 java/lang/String#
//                 ^^^^^^^ definition scip-java maven . . minimized/Hello#message.
//                         kind Field
//                         display_name message
//                         signature_documentation
//                         > private String message
//                 ^^^^^^^ definition local 0
//                         display_name message
//                         signature_documentation
//                         > final String message
//                 ^^^^^^^ definition scip-java maven . . minimized/Hello#HelloBuilder#message.
//                         kind Field
//                         display_name message
//                         signature_documentation
//                         > @SuppressWarnings("all")
//                         > @Generated
//                         > private String message
//                 ^^^^^^^ definition scip-java maven . . minimized/Hello#HelloBuilder#message().
//                         kind Method
//                         display_name message
//                         signature_documentation
//                         > @SuppressWarnings("all")
//                         > @Generated
//                         > public HelloBuilder message(String message)
//                         documentation
//                         > @return {@code this}.
//                 ^^^^^^^ definition local 1
//                         display_name message
//                         signature_documentation
//                         > final String message
//                        ⌃ enclosing_range_end scip-java maven . . minimized/Hello#message.
  }
//⌃ enclosing_range_end scip-java maven . . minimized/Hello#
  
