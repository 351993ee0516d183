//! The decision engine's trace panel: any engine's trace ([`super::steps`]), and a cycle of
//! decisions at the cursor drawn as a ring where it fits.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

use super::model::ViewModel;
use super::parts;
use crate::tui::layout::trace_split;
use dipsandbox_core::engine::decision::trace::Event;

/// The decisions of the cycle event at the stepper's cursor, in walk order (the walk's
/// closing repeat of its first decision left out).
pub fn cycle_at_cursor(vm: &ViewModel) -> Option<Vec<String>> {
    let s = vm.session;
    let st = s.stepper()?;
    let applied = s.steps.partition_point(|&i| i < st.cursor());
    let k = *s.steps.get(applied.checked_sub(1)?)?;
    match st.events().get(k)? {
        Event::CycleFound { walk, .. } => {
            let mut w: Vec<u32> = walk.clone();
            if w.len() > 1 && w.first() == w.last() {
                w.pop();
            }
            Some(w.iter().map(|id| s.node_subject(*id)).collect())
        }
        _ => None,
    }
}

/// Draws the ring `pic` at the bottom of the first `free` rows of `inner`.
fn draw_ring(frame: &mut Frame, vm: &ViewModel, inner: Rect, free: u16, pic: Vec<String>) {
    let rows = u16::try_from(pic.len() + 1).unwrap_or(u16::MAX).min(free);
    let r = Rect::new(inner.x, inner.y + free - rows, inner.width, rows);
    frame.render_widget(ratatui::widgets::Clear, r);
    let mut text = vec![Line::styled("the cycle, as a ring:", vm.theme.dim())];
    text.extend(pic.into_iter().map(|l| Line::styled(l, vm.theme.cycle())));
    frame.render_widget(Paragraph::new(text), r);
}

/// Draws the panel: the trace as any engine's ([`super::steps::draw_trace`]), with a cycle at
/// the cursor drawn as a ring at the bottom of the list, above the step in full, where it fits
/// with a few rows of the list left.
pub fn draw(frame: &mut Frame, vm: &ViewModel, area: Rect) {
    super::steps::draw_trace(frame, vm, area);
    let Some(names) = cycle_at_cursor(vm) else {
        return;
    };
    let (inner, detail) = trace_split(area);
    let (_, text, _) = super::steps::at_cursor(vm);
    // The detail's rows: its separator and the step's words (as the detail draws them).
    let need = parts::wrapped_rows(&[Line::raw(text)], inner.width, true) + 1;
    let grown = u16::try_from(need)
        .unwrap_or(u16::MAX)
        .saturating_sub(detail.map_or(0, |d| d.height));
    let free = inner.height.saturating_sub(grown);
    if let Some(pic) = super::ring::picture(
        &names,
        usize::from(inner.width),
        usize::from(free.saturating_sub(4)),
    ) {
        draw_ring(frame, vm, inner, free, pic);
    }
}
