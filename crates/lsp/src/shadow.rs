//! Lines between an open buffer with unsaved changes and its file as saved: the tools answer on
//! the saved files, so a position the editor sends is moved to the saved file's line before a
//! query, and each position an answer gives in that file is moved back to the buffer's. A line
//! the edit touched has no counterpart: a query there answers nothing, and an answer there is
//! left out, never shown at a wrong place.

use lsp_types::{Position, Range};
use similar::{Algorithm, DiffOp, TextDiff};

/// Each line of one text (0-based): its line in the other, if they share it.
type Side = Vec<Option<u32>>;

/// The lines two texts share (0-based), each way (to the saved file, to the buffer); `None`:
/// the texts are equal.
#[derive(Debug, Clone, Default)]
pub struct LineMap {
    sides: Option<(Side, Side)>,
}

impl LineMap {
    /// The map between `saved` (the file) and `buffer` (the editor's text): the lines of the
    /// runs a line diff (Myers) finds equal.
    pub fn between(saved: &str, buffer: &str) -> LineMap {
        if saved == buffer {
            return LineMap::default();
        }
        // A deadline keeps a huge rewrite cheap: the runs found equal by then are still equal.
        let diff = TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .timeout(std::time::Duration::from_millis(100))
            .diff_lines(saved, buffer);
        let (old_len, new_len) = (diff.old_slices().len(), diff.new_slices().len());
        // A text's last line without its line ending is one more line than the slices count
        // when the text ends with one; positions past the last slice map nowhere.
        let mut to_buffer = vec![None; old_len + 1];
        let mut to_saved = vec![None; new_len + 1];
        for op in diff.ops() {
            if let DiffOp::Equal { old_index, new_index, len } = *op {
                for i in 0..len {
                    to_buffer[old_index + i] = Some((new_index + i) as u32);
                    to_saved[new_index + i] = Some((old_index + i) as u32);
                }
            }
        }
        LineMap { sides: Some((to_saved, to_buffer)) }
    }

    /// No line maps: a buffer whose file cannot be read.
    pub fn nothing() -> LineMap {
        LineMap { sides: Some((Vec::new(), Vec::new())) }
    }

    /// The buffer is the saved file (or no buffer is open): every line is its own.
    pub fn is_clean(&self) -> bool {
        self.sides.is_none()
    }

    /// The saved file's line of a buffer's line, if the edit left it as it was.
    pub fn to_saved(&self, line: u32) -> Option<u32> {
        match &self.sides {
            None => Some(line),
            Some((to_saved, _)) => to_saved.get(line as usize).copied().flatten(),
        }
    }

    /// The buffer's line of a saved file's line, if the edit left it as it was.
    pub fn to_buffer(&self, line: u32) -> Option<u32> {
        match &self.sides {
            None => Some(line),
            Some((_, to_buffer)) => to_buffer.get(line as usize).copied().flatten(),
        }
    }

    /// A range of the saved file in the buffer: both ends on lines the edit left as they were
    /// (the columns are then the same), else `None`.
    pub fn range_to_buffer(&self, r: Range) -> Option<Range> {
        let start = Position { line: self.to_buffer(r.start.line)?, character: r.start.character };
        let end = Position { line: self.to_buffer(r.end.line)?, character: r.end.character };
        Some(Range { start, end })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_around_an_edit_map_both_ways_and_the_edited_ones_nowhere() {
        let saved = "package p;\nclass A {\n  int a;\n  void m() {}\n}\n";
        // Two lines added at the top, `int a;` changed, a method added before the end.
        let buffer = "// one\n// two\npackage p;\nclass A {\n  long a;\n  void m() {}\n  void n() {}\n}\n";
        let m = LineMap::between(saved, buffer);
        assert_eq!((m.to_saved(0), m.to_saved(1), m.to_saved(2), m.to_saved(3)), (None, None, Some(0), Some(1)));
        assert_eq!((m.to_saved(4), m.to_saved(5), m.to_saved(6), m.to_saved(7)), (None, Some(3), None, Some(4)));
        assert_eq!((m.to_buffer(1), m.to_buffer(2), m.to_buffer(3), m.to_buffer(4)), (Some(3), None, Some(5), Some(7)));
        assert_eq!(m.to_saved(99), None);
        let r = |l0: u32, c0: u32, l1: u32, c1: u32| Range {
            start: Position { line: l0, character: c0 },
            end: Position { line: l1, character: c1 },
        };
        assert_eq!(m.range_to_buffer(r(3, 7, 3, 8)), Some(r(5, 7, 5, 8)));
        assert_eq!(m.range_to_buffer(r(1, 0, 2, 3)), None, "its end is on the edited line");
        let same = LineMap::between(saved, saved);
        assert_eq!((same.to_saved(99), same.to_buffer(99)), (Some(99), Some(99)));
        assert!(same.is_clean() && !m.is_clean() && !LineMap::nothing().is_clean());
        assert_eq!(LineMap::nothing().to_saved(0), None);
    }
}
