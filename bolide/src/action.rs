//! What a pilot (or the arbiter, for the grab) may ask the host to do.

use crate::model::{Atout, Pawn, Seat};
use serde::{Deserialize, Serialize};

/// One action by one seat. The engine applies it or refuses it with a
/// [`RuleError`](crate::RuleError) naming the rule; a refused action changes nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
// A field no action has is a mistake in a scenario file, not something to skip.
#[serde(deny_unknown_fields)]
pub enum Action {
    // --- B-4, the simultaneous phase ---
    /// B-4.6: call Klaxon before the cup is lifted.
    Klaxon,
    /// B-4.2: the first player lifts the cup (on the network the host does it at the reveal
    /// instant on the first player's behalf).
    Lift,
    /// B-4.3, B-4.6: take a pawn. During the grab the arbiter decides which request arrives
    /// first; the engine only sees them in that order.
    TakePawn { pawn: Pawn },
    /// B-4.7: play Échange against `with` during the Échange window.
    Echange { with: Seat },
    /// B-4.7: let the Échange window pass without playing it.
    KeepPawn,

    // --- B-5, the pilot's own turn ---
    /// B-5.2: roll the accelerator.
    Roll,
    /// B-5.8: move without rolling and without speed-limit checks.
    AsDeLaRoute,
    /// B-5.12: slip in behind the nearest car ahead before rolling.
    Aspiration,
    /// B-5.10: roll the accelerator again and keep the new roll.
    SecondChance,
    /// B-5.11: move `tiles_before` tiles normally, then jump over the next turn for one
    /// movement point. Movement then continues with a `Move`.
    Raccourci { tiles_before: u8 },
    /// B-5.3: move this many tiles (at most the reservoir and the speed limits allow) and end
    /// the movement.
    Move { tiles: u8 },
    /// B-5.9: after a full move, cross one more tile ignoring its limit.
    Nitro,
    /// B-5.13: take back a used Atout.
    Assistance { atout: Atout },
    /// B-5.14: put the oil on a tile entered this turn.
    Huile { tile: u8 },
    /// End the turn: take the bonus under the car (B-5.5), a Second Chance if the car did not
    /// move (B-5.4), and pass to the next pilot.
    EndTurn,
}
