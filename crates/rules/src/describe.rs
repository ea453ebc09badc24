//! What the command rules look like right now, for a user interface: the leaders of the side
//! to move, the links that connect units to them, the zone each leader commands, and under the
//! lead model the leader leading the turn with its budget and the kinds it may activate; and
//! how a variant's command rules show (`command_presentation`: the flags and sentences the
//! pages use instead of the model's name). Each command model describes itself in its own
//! module (command/, `Describe`); this asks it. The types are plain data (view.rs). The
//! server and the browser draw this; they never recompute the rules.

use crate::command::{describe_model, CommandBoard, Describe};
use crate::variant::Variant;
pub use crate::view::{CommandPresentation, CommandView, LeaderView, LeadingView};

impl CommandBoard {
    /// The command picture for the side to move (see `CommandView`), in its model's words.
    pub fn command_view(&self) -> CommandView {
        describe_model(&self.variant.command).view(self)
    }
}

/// The description of `v`'s rules of command (off the hot paths): its command model's, or
/// the body family's (Lifeform, which has no command model).
pub(crate) fn description(v: &Variant) -> Box<dyn Describe> {
    if v.is_body() {
        Box::new(crate::body::BodyModel)
    } else {
        describe_model(&v.command)
    }
}

/// How `v`'s command rules show in an interface, the same in every position: whether a turn
/// is one step, whether the command overlay has something to draw, the link rule and the
/// overlay's legend in sentences.
pub fn command_presentation(v: &Variant) -> CommandPresentation {
    let d = description(v);
    let legend = d.legend(v);
    CommandPresentation {
        one_step_turns: v.one_step_turns(),
        shows_command: legend.is_some(),
        link_rule: d.link_rule(v),
        legend,
    }
}
