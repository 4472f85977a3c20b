"""Roll For It! Deluxe position strings: parse, validate, and write the canonical form.

See :func:`notation_help` (also printed by ``dicetree notation rollforit``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from dicetree.solver.game import PositionError
from dicetree.solver.games.rollforit.rules import can_place, deck_cards, dice_on_cards, most_points
from dicetree.solver.games.rollforit.state import (
    DICE_PER_PLAYER, FLIP, OVER, PHASE_NAMES, PLACE, ROLL, TARGET, RollForItState,
    faces_text, player_letter,
)
from dicetree.solver.players import player_seat
from dicetree.solver.rule_options import shorten

_FACES = re.compile(r"[1-6]{1,6}$")
_SCORE = re.compile(r"(0|[1-9][0-9]{0,3})$")


def notation_help(game) -> str:
    """The notation, the readings of what the rules leave open, and examples valid for ``game``."""
    first = " first:<player>" if game.ending == "end_of_round" else ""
    lines = [
        "Roll For It! Deluxe position notation (space-separated fields):",
        "",
        f"  <cards> <scores> <turn> deck:<cards>{first}",
        "",
        "  cards   the face-up cards, comma-separated, each its id from the deck file followed by",
        "          :<player><faces> for each player with dice on it, e.g. G15:A35:B4 (A's dice show",
        "          3 and 5, B's a 4); '-' for none. A player's dice must match open images of the card",
        "          (dice of several players may sit on one card, each filling its own images) and",
        "          never all of them (a card is scored the moment one player matches them all).",
        "  scores  each player's points, dash-separated, A first: 12-7 (as many as players).",
        "          The scored cards are those neither face up nor in the deck: the scores must be",
        "          a split of their points.",
        "  turn    whose turn and its phase:",
        "            A:turn         A decides before the roll: roll (pass, with no die free) or take back",
        "            A:roll         chance: A rolls every die not on a card",
        "            A:place:1356   A places the rolled faces 1,3,5,6 (at least one must match an open image)",
        "            A:flip:35      chance: a card is flipped to replace one A scored; 3,5 still to place",
        "                           (A:flip when none is left)",
        "            over:A         A won; over:A+C: A and C share the win",
        "  deck    the cards still in the deck (their order unknown): ids and ranges in the deck",
        "          file's order, e.g. deck:G01-G06,G09; deck:- when empty.",
    ]
    if first:
        lines.append("  first   who took the first turn (the game ends at the end of a round: before their turn).")
    lines += [
        "",
        f"Cards in play: {game.describe_decks()}. {game.slots} cards lie face up.",
        "",
        "Readings of what the rules leave open (rule options; --rule NAME=VALUE):",
    ]
    lines += [f"  {line}" for line in game.readings()]
    lines += [
        "",
        "Scoring a card returns ALL dice on it to their owners, the other players' included: chasing",
        "a card others have dice on takes their dice away from it as well.",
        "",
        "Moves: roll / pass / take back (at turn); score G15 (put the open faces on G15 and score it);",
        "  G15:35,G20:4 (place dice that score nothing, which ends the turn); none (place nothing).",
        "  A turn's scorings come first, one card at a time (each is followed by its flip), then one",
        "  placement that scores nothing: placing such a die before a flip would change nothing.",
        "Chance outcomes: roll 113456 (the faces, ascending), flip G22.",
        "",
        "Examples:",
    ]
    for text, meaning in game.notation_examples():
        lines += [f"  {text}", f"      {meaning}"]
    return "\n".join(lines)


# ----- writing ----------------------------------------------------------------------------------
def format_position(state: RollForItState, game) -> str:
    """The canonical position string of ``state``."""
    cards = []
    for card, on_card in zip(state.cards, state.placed):
        dice = "".join(f":{player_letter(p)}{faces_text(faces)}" for p, faces in enumerate(on_card) if faces)
        cards.append(game.cards[card].id + dice)
    fields = [",".join(cards) or "-", "-".join(str(s) for s in state.scores), _turn_text(state),
              "deck:" + deck_text(state.deck, game)]
    if game.ending == "end_of_round":
        fields.append(f"first:{player_letter(state.starter)}")
    return " ".join(fields)


def _turn_text(state: RollForItState) -> str:
    if state.phase == OVER:
        return "over:" + "+".join(player_letter(p) for p in state.winners)
    text = f"{player_letter(state.mover)}:{PHASE_NAMES[state.phase]}"
    if state.phase in (PLACE, FLIP) and state.rolled:
        text += ":" + faces_text(state.rolled)
    return text


def deck_text(deck: int, game) -> str:
    """The deck's cards as ids, maximal runs of consecutive cards as first-last: 'G01-G06,G09'."""
    cards = deck_cards(deck)
    if not cards:
        return "-"
    runs: list[list[int]] = []
    for card in cards:
        if runs and runs[-1][1] == card - 1:
            runs[-1][1] = card
        else:
            runs.append([card, card])
    ids = [c.id for c in game.cards]
    return ",".join(ids[a] if a == b else f"{ids[a]}-{ids[b]}" for a, b in runs)


# ----- reading ----------------------------------------------------------------------------------
def parse_position(text: str, game) -> RollForItState:
    """Parse and validate a position string; :class:`PositionError` says precisely what is wrong."""
    fields = text.split()
    wanted = 5 if game.ending == "end_of_round" else 4
    if len(fields) != wanted:
        shape = "<cards> <scores> <turn> deck:<cards>" + (" first:<player>" if wanted == 5 else "")
        raise PositionError(f"a Roll For It! position has {wanted} fields ({shape}), got {len(fields)}: "
                            f"'{shorten(text)}'")
    cards_f, scores_f, turn_f, deck_f = fields[:4]
    n = game.num_players
    scores = _scores(scores_f, n)
    seen: dict[int, str] = {}
    cards, placed = _cards(cards_f, game, seen)
    if not deck_f.startswith("deck:"):
        raise PositionError(f"the fourth field is the deck, deck:<cards> (deck:- for none), not '{shorten(deck_f)}'")
    deck = _deck(deck_f[5:], game, seen)
    mover, phase, rolled, winners = _turn(turn_f, n)
    starter = 0
    if wanted == 5:
        first = fields[4]
        seat = _player(first[6:], n) if first.startswith("first:") else None
        if seat is None:
            raise PositionError(f"the fifth field is who took the first turn, first:A .. "
                                f"first:{player_letter(n - 1)}, not '{shorten(first)}'")
        starter = seat
    order = sorted(range(len(cards)), key=cards.__getitem__)
    state = RollForItState(
        cards=tuple(cards[i] for i in order), placed=tuple(placed[i] for i in order), scores=scores, deck=deck,
        mover=mover, phase=phase, rolled=rolled, starter=starter, winners=winners,
    )
    _check(state, game)
    return state


def _player(text: str, n: int) -> int | None:
    """The seat ``text`` names (``A`` or ``a``, ``P1`` too: :func:`player_seat`), None if none."""
    return player_seat(text, n)


def _players_text(n: int) -> str:
    return f"A to {player_letter(n - 1)}"


def _scores(text: str, n: int) -> tuple[int, ...]:
    parts = text.split("-")
    for part in parts:
        if not _SCORE.match(part):
            raise PositionError(f"scores are whole numbers without leading zeros, dash-separated (12-7), "
                                f"not '{shorten(text)}'")
    if len(parts) != n:
        raise PositionError(f"the position gives {len(parts)} scores but the game is for {n} players "
                            f"(--rule players=N sets the number)")
    return tuple(int(p) for p in parts)


def _card_index(card_id: str, game, seen: dict[int, str], where: str) -> int:
    index = game.card_index.get(card_id)
    if index is None:
        known = game.card_index_anywhere(card_id)
        why = f"is not in the {game.describe_decks()} in play" if known else "is in no deck of the deck file"
        raise PositionError(f"card '{shorten(card_id)}' {why}")
    if index in seen:
        raise PositionError(f"card {card_id} is shown twice ({seen[index]} and {where})")
    seen[index] = where
    return index


def _cards(text: str, game, seen: dict[int, str]) -> tuple[list[int], list[tuple]]:
    cards: list[int] = []
    placed: list[tuple] = []
    if text == "-":
        return cards, placed
    n = game.num_players
    for token in text.split(","):
        card_id, *dice = token.split(":")
        index = _card_index(card_id, game, seen, "face up")
        on_card: list[tuple[int, ...]] = [()] * n
        for part in dice:
            player = _player(part[:1], n)
            if player is None or not _FACES.match(part[1:]):
                raise PositionError(f"card {card_id}: dice are written :<player><faces> (player {_players_text(n)}, "
                                    f"faces 1 to 6, e.g. :A35), not ':{shorten(part)}'")
            if on_card[player]:
                raise PositionError(f"card {card_id}: {player_letter(player)}'s dice are given twice")
            faces = tuple(sorted(int(c) for c in part[1:]))
            images = list(game.cards[index].dice)
            for face in faces:
                if face not in images:
                    raise PositionError(f"card {card_id}: {player_letter(player)}'s die {face} matches no open image "
                                        f"(its images are {faces_text(game.cards[index].dice)})")
                images.remove(face)
            if not images:
                raise PositionError(f"card {card_id}: {player_letter(player)}'s dice match all its images: "
                                    "it would have been scored")
            on_card[player] = faces
        cards.append(index)
        placed.append(tuple(on_card))
    return cards, placed


def _deck(text: str, game, seen: dict[int, str]) -> int:
    if text == "-":
        return 0
    mask = 0
    for token in text.split(","):
        first, dash, last = token.partition("-")
        a = _card_index(first, game, {}, "")
        b = _card_index(last, game, {}, "") if dash else a
        if b < a:
            raise PositionError(f"deck range {shorten(token)} runs backwards (the deck file lists {last} first)")
        for index in range(a, b + 1):
            if index in seen:
                raise PositionError(f"card {game.cards[index].id} is shown twice ({seen[index]} and in the deck)")
            seen[index] = "in the deck"
            mask |= 1 << index
    return mask


def _turn(text: str, n: int) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """(mover, phase, rolled faces, winners) from A:turn, A:place:1356, over:A+B, ..."""
    if text.startswith("over:"):
        winners = []
        for part in text[5:].split("+"):
            player = _player(part, n)
            if player is None or player in winners:
                raise PositionError(f"over:<winners> names players {_players_text(n)} joined by +, each once "
                                    f"(over:A, over:A+C), not '{shorten(text)}'")
            winners.append(player)
        return 0, OVER, (), tuple(sorted(winners))
    parts = text.split(":")
    player = _player(parts[0], n)
    names = ("turn", "roll", "place", "flip")
    if player is None or len(parts) not in (2, 3) or parts[1] not in names:
        raise PositionError(f"the turn is <player>:<phase> (player {_players_text(n)}; phase turn, roll, "
                            f"place:<faces>, flip[:<faces>]) or over:<winners>, not '{shorten(text)}'")
    phase = PHASE_NAMES.index(parts[1])
    rolled: tuple[int, ...] = ()
    if len(parts) == 3:
        if phase not in (PLACE, FLIP) or not _FACES.match(parts[2]):
            raise PositionError(f"only place and flip carry rolled faces (1 to 6, at most six), not '{shorten(text)}'")
        rolled = tuple(sorted(int(c) for c in parts[2]))
    elif phase == PLACE:
        raise PositionError("phase place needs the rolled faces to place, e.g. A:place:1356")
    return player, phase, rolled, ()


def _check(state: RollForItState, game) -> None:
    """Refuse what no game reaches (the messages say which rule it breaks)."""
    n = game.num_players
    for p in range(n):
        dice = dice_on_cards(state, p) + (len(state.rolled) if p == state.mover else 0)
        if dice > DICE_PER_PLAYER:
            held = " with the rolled faces" if p == state.mover and state.rolled else ""
            raise PositionError(f"{player_letter(p)} has {dice} dice on cards{held}: a player has {DICE_PER_PLAYER}")
    _check_scores(state, game)
    _check_card_count(state, game)
    mover = player_letter(state.mover)
    if state.phase == ROLL and dice_on_cards(state, state.mover) == DICE_PER_PLAYER:
        raise PositionError(f"{mover} has all six dice on cards: nothing to roll (the phase is turn)")
    if state.phase == PLACE and not can_place(state, game):
        raise PositionError(f"no face of {faces_text(state.rolled)} matches an image {mover} has open: "
                            "the turn would have ended")
    if state.phase == OVER:
        _check_over(state, game)
    elif game.ending == "at_once":
        high = [player_letter(p) for p, s in enumerate(state.scores) if s >= TARGET]
        if high:
            raise PositionError(f"{high[0]} has {TARGET} points or more: the game is over (over:{high[0]})")


def _check_card_count(state: RollForItState, game) -> None:
    count, slots = len(state.cards), game.slots
    if state.phase == FLIP:
        if not state.deck:
            raise PositionError("phase flip needs a card in the deck")
        if count != slots - 1:
            raise PositionError(f"phase flip replaces one scored card: {slots - 1} cards face up, not {count}")
    elif state.phase == OVER:
        if count > slots or (state.deck and count < slots - 1):
            raise PositionError(f"{count} cards face up at the end: {slots} lie face up (one fewer if the game "
                                "ended as a card was scored)")
    elif state.deck or game.deck_out == "end":
        if count != slots:
            why = "while the deck has cards" if state.deck else "(with deck_out=end the game ends when a card cannot be replaced)"
            raise PositionError(f"{slots} cards lie face up {why}, not {count}")
    elif not 1 <= count <= slots:
        why = "the game is over (write over:<winners>)" if count == 0 else f"at most {slots} lie face up"
        raise PositionError(f"{count} cards face up: {why}")


def _check_over(state: RollForItState, game) -> None:
    winners = "+".join(player_letter(p) for p in state.winners)
    reached = [p for p, s in enumerate(state.scores) if s >= TARGET]
    if game.ending == "at_once" and reached:
        if len(reached) > 1:
            raise PositionError(f"{len(reached)} players have {TARGET} points or more: the first to reach "
                                f"{TARGET} ends the game at once")
        if state.winners != tuple(reached):
            raise PositionError(f"{player_letter(reached[0])} reached {TARGET}: the winner is "
                                f"{player_letter(reached[0])}, not {winners}")
        return
    if not reached:
        ran_out = not state.deck and (game.deck_out == "end" or not state.cards)
        if not ran_out:
            raise PositionError(f"over:{winners} but nobody has {TARGET} points and the deck has not run out")
    if state.winners != most_points(state.scores):
        best = "+".join(player_letter(p) for p in most_points(state.scores))
        raise PositionError(f"the game is won by the most points: over:{best}, not over:{winners}")


def _check_scores(state: RollForItState, game) -> None:
    """The scored cards (neither face up nor in the deck) must split into the players' scores."""
    scored = [i for i in range(len(game.cards)) if i not in state.cards and not state.deck >> i & 1]
    points = tuple(sorted((game.cards[i].points for i in scored), reverse=True))
    scores = "-".join(str(s) for s in state.scores)
    if sum(points) != sum(state.scores):
        raise PositionError(f"scores {scores} add up to {sum(state.scores)}, but the {len(scored)} cards neither "
                            f"face up nor in the deck are worth {sum(points)}")
    if not _splits(points, tuple(sorted(state.scores))):
        raise PositionError(f"no split of the {len(scored)} scored cards (worth "
                            f"{'+'.join(map(str, points)) or '0'}) makes the scores {scores}")


@lru_cache(maxsize=4096)
def _splits(points: tuple[int, ...], needs: tuple[int, ...]) -> bool:
    """Whether the card points (descending) can be dealt out to make exactly ``needs`` (ascending)."""
    if not points:
        return not any(needs)
    first, rest = points[0], points[1:]
    tried = set()
    for i, need in enumerate(needs):
        if need >= first and need not in tried:
            tried.add(need)
            if _splits(rest, tuple(sorted(needs[:i] + (need - first,) + needs[i + 1:]))):
                return True
    return False
