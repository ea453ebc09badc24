//! The module's `extern "C"` exports (wasm32 only). Strings go in as (pointer, length) of
//! UTF-8 the caller wrote into memory it got from `alloc`; every call that answers
//! something returns a status (0: done, 1: an error) and leaves its answer (or the error's
//! message) in one buffer, read with `result_ptr` and `result_len` before the next call.
//! Imports (module `env`): `cohort_now_ms() -> f64` (the engine's clock),
//! `cohort_info(ptr, len) -> i32` (a search's report; nonzero stops the search) and
//! `cohort_panic(ptr, len)` (an internal error's message: the host throws it).

use std::cell::RefCell;

use crate::{Session, StepArg};

extern "C" {
    fn cohort_info(ptr: *const u8, len: usize) -> i32;
    fn cohort_panic(ptr: *const u8, len: usize);
}

thread_local! {
    /// The games, by handle (index + 1); a freed one is None.
    static GAMES: RefCell<Vec<Option<Session>>> = const { RefCell::new(Vec::new()) };
    /// The last answer or error message.
    static RESULT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

fn set_result(text: &str) {
    RESULT.with(|r| {
        let mut r = r.borrow_mut();
        r.clear();
        r.extend_from_slice(text.as_bytes());
    });
}

/// 0 with `text` as the answer, or 1 with the error's message.
fn answer(result: Result<String, String>) -> i32 {
    match result {
        Ok(text) => {
            set_result(&text);
            0
        }
        Err(message) => {
            set_result(&message);
            1
        }
    }
}

/// The string at (ptr, len), which the caller wrote there.
fn read_str<'a>(ptr: *const u8, len: usize) -> Result<&'a str, String> {
    if len == 0 {
        return Ok("");
    }
    if ptr.is_null() {
        return Err("a null string pointer".into());
    }
    // SAFETY: the host wrote `len` bytes at `ptr`, memory it got from `alloc(len)`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    std::str::from_utf8(bytes).map_err(|e| format!("the text is not UTF-8: {e}"))
}

/// Run `f` on the game `handle`. The game is taken out of its slot while `f` runs, so that
/// no borrow is left held if an internal error (a panic, which the host throws as an
/// exception) abandons the call; such a game is lost, and its handle says so after.
fn with_game<T>(handle: u32, f: impl FnOnce(&mut Session) -> T) -> Result<T, String> {
    let i = (handle as usize).wrapping_sub(1);
    let mut game = GAMES.with(|g| g.borrow_mut().get_mut(i).and_then(Option::take));
    let Some(session) = game.as_mut() else {
        return Err(format!(
            "no game {handle} (never made, freed, or lost to an internal error)"
        ));
    };
    let out = f(session);
    GAMES.with(|g| g.borrow_mut()[i] = game);
    Ok(out)
}

fn install_panic_hook() {
    use std::sync::Once;
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let msg = format!("cohort: internal error: {info}");
            // SAFETY: an imported function reading `len` bytes at `ptr`; it throws.
            unsafe { cohort_panic(msg.as_ptr(), msg.len()) };
        }));
    });
}

/// Memory for the host to write `len` bytes into (freed with `dealloc(ptr, len)`).
#[no_mangle]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let ptr = v.as_mut_ptr();
    std::mem::forget(v);
    ptr
}

/// # Safety
/// `ptr` and `len` as `alloc` gave and was asked.
#[no_mangle]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        drop(Vec::from_raw_parts(ptr, 0, len.max(1)));
    }
}

#[no_mangle]
pub extern "C" fn result_ptr() -> *const u8 {
    RESULT.with(|r| r.borrow().as_ptr())
}

#[no_mangle]
pub extern "C" fn result_len() -> usize {
    RESULT.with(|r| r.borrow().len())
}

/// Register the outside families; the panic hook. Called once by the host after loading.
#[no_mangle]
pub extern "C" fn init() {
    install_panic_hook();
    crate::init();
}

/// The built-in variants as JSON `[{id, name}]`.
#[no_mangle]
pub extern "C" fn variants() -> i32 {
    answer(Ok(crate::variants_json()))
}

/// Marks on an analysis's points (`crate::marks_json`): the points with `loss` and `mark`.
#[no_mangle]
pub extern "C" fn marks(ptr: *const u8, len: usize) -> i32 {
    answer(read_str(ptr, len).and_then(crate::marks_json))
}

/// A new game: `variant` is an id or a variant file's text, `position` (length 0: none) a
/// position string. Answers `{handle, variant, name}`.
#[no_mangle]
pub extern "C" fn game_new(vptr: *const u8, vlen: usize, pptr: *const u8, plen: usize) -> i32 {
    answer((|| {
        let variant = read_str(vptr, vlen)?;
        let position = read_str(pptr, plen)?;
        let position = (!position.trim().is_empty()).then_some(position);
        let session = Session::new(variant, position)?;
        let info =
            serde_json::json!({"variant": session.variant().id, "name": session.variant().name});
        let handle = GAMES.with(|g| {
            let mut g = g.borrow_mut();
            g.push(Some(session));
            g.len()
        });
        let mut info = info;
        info["handle"] = handle.into();
        Ok(info.to_string())
    })())
}

#[no_mangle]
pub extern "C" fn game_free(handle: u32) {
    let i = (handle as usize).wrapping_sub(1);
    GAMES.with(|g| {
        if let Some(slot) = g.borrow_mut().get_mut(i) {
            *slot = None;
        }
    });
}

#[no_mangle]
pub extern "C" fn game_position(handle: u32) -> i32 {
    answer(with_game(handle, |s| s.position()))
}

#[no_mangle]
pub extern "C" fn game_set_position(handle: u32, ptr: *const u8, len: usize) -> i32 {
    answer(
        read_str(ptr, len)
            .and_then(|t| with_game(handle, |s| s.set_position(t))?.map(|_| String::new())),
    )
}

#[no_mangle]
pub extern "C" fn game_side_to_move(handle: u32) -> i32 {
    answer(with_game(handle, |s| s.side_to_move().to_string()))
}

#[no_mangle]
pub extern "C" fn game_legal_steps(handle: u32) -> i32 {
    answer(with_game(handle, |s| s.legal_steps_json()))
}

/// Make the legal step listed at `index`.
#[no_mangle]
pub extern "C" fn game_make_index(handle: u32, index: u32) -> i32 {
    answer(with_game(handle, |s| s.make(StepArg::Index(index as usize))).and_then(|r| r))
}

/// Make the step written at (ptr, len).
#[no_mangle]
pub extern "C" fn game_make_text(handle: u32, ptr: *const u8, len: usize) -> i32 {
    answer(read_str(ptr, len).and_then(|t| with_game(handle, |s| s.make(StepArg::Text(t)))?))
}

/// Take back the last step: answers "true", or "false" when there is none.
#[no_mangle]
pub extern "C" fn game_unmake(handle: u32) -> i32 {
    answer(with_game(handle, |s| s.unmake().to_string()))
}

#[no_mangle]
pub extern "C" fn game_outcome(handle: u32) -> i32 {
    answer(with_game(handle, |s| s.outcome_json()))
}

#[no_mangle]
pub extern "C" fn game_view(handle: u32) -> i32 {
    answer(with_game(handle, |s| s.view_json()))
}

/// The step perft count, as decimal text (counts pass 2^53).
#[no_mangle]
pub extern "C" fn game_perft(handle: u32, depth: u32) -> i32 {
    answer(with_game(handle, |s| s.perft(depth).to_string()))
}

/// `{"best": [texts], "played": [texts], "ms"}`: the played turn judged against the best
/// at the same depth (`Session::judge_json`).
#[no_mangle]
pub extern "C" fn game_judge(handle: u32, ptr: *const u8, len: usize) -> i32 {
    answer(read_str(ptr, len).and_then(|t| with_game(handle, |s| s.judge_json(t))?))
}

/// The engine's turn within `ms` milliseconds and `nodes` nodes (each: 0 or less for no
/// limit). Reports each finished depth through `cohort_info`.
#[no_mangle]
pub extern "C" fn game_search(handle: u32, ms: f64, nodes: f64) -> i32 {
    let ms = (ms >= 1.0).then_some(ms as u64);
    let nodes = (nodes >= 1.0).then_some(nodes as u64);
    answer(
        with_game(handle, |s| {
            s.search(ms, nodes, &mut |msg: &str| {
                // SAFETY: an imported function reading `len` bytes at `ptr`.
                unsafe { cohort_info(msg.as_ptr(), msg.len()) != 0 }
            })
        })
        .and_then(|r| r),
    )
}
