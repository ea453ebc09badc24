//! What a search may ask a family about its game (`SearchHooks::search_profile`), so that the
//! engine tests no command model and guesses no piece by its letter. Plain data.

/// A family's answer for one variant, asked once when an engine is built for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchProfile {
    /// A turn is always one step (the first search of a turn may take all its time).
    pub one_step_turns: bool,
    /// Turns are long and move many units (the chain model; three or more leaders with a
    /// range): the experimental turn planner may plan them.
    pub long_turns: bool,
    /// Late quiet steps inside a turn may be searched shallower: turns of many steps
    /// where most orders of the same moves are alike.
    pub reduce_in_turn: bool,
    /// Fronts of units under command lock up, so that a side far ahead must hunt the
    /// enemy's vital units down to win.
    pub locking_fronts: bool,
    /// Any enemy unit may threaten next turn, not only those under command now (a turn
    /// of many steps links units before they strike).
    pub threats_from_any: bool,
    /// For each piece kind: losing every unit of the vital kinds loses the game (royal
    /// units; Lifeform's Head and Torso).
    pub vital: Vec<bool>,
    /// The kind whose advance counts (a pawn), where the evaluation should count it.
    pub pawn: Option<usize>,
    /// Units are taken off their destination too (Ultima's captures): the evaluation
    /// counts material and king safety only.
    pub material_only: bool,
}

impl SearchProfile {
    /// The profile the variant's data gives: royal pieces are vital, a turn may be many
    /// steps, nothing else known. Families say more of their own games.
    pub fn from_data(variant: &crate::variant::Variant) -> SearchProfile {
        SearchProfile {
            one_step_turns: false,
            long_turns: false,
            reduce_in_turn: false,
            locking_fronts: false,
            threats_from_any: false,
            vital: variant.pieces.iter().map(|p| p.royal).collect(),
            pawn: None,
            material_only: false,
        }
    }
}
