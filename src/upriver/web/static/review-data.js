// The review as the server sends it (GET /api/tables/{id}/review; docs/review.md and
// docs/review.schema.json), as JSDoc types for the review panel's modules. Only the types are
// imported (in comments), so the browser never loads this file.

/**
 * A bid (its number) or a card (its text, "TH").
 * @typedef {number | string} Choice
 */

/**
 * A decision's position, only what the seat saw then.
 * @typedef {object} Position
 * @property {string[]} hand
 * @property {string | null} turned the card turned up for trump
 * @property {string | null} trump the trump suit's letter, when no card is turned (trump that rotates)
 * @property {number} dealer
 * @property {(number | null)[]} bids by seat, null before a seat has bid
 * @property {number[]} tricks_won by seat
 * @property {[number, string][]} trick the cards on the table: [seat, card]
 * @property {number} trick_number from 1
 * @property {Choice[]} legal
 */

/**
 * One choice the expert weighed.
 * @typedef {object} Candidate
 * @property {Choice} choice
 * @property {number} expected the points it is worth on average
 * @property {number} make the chance of making the bid with it
 * @property {number} loss
 * @property {number} loss_error
 */

/**
 * One decision of the reviewed seat: what it chose, what the expert would have, what it cost.
 * @typedef {object} Decision
 * @property {number} round
 * @property {number} step
 * @property {"bid" | "card"} kind
 * @property {Position} position
 * @property {Choice} chosen
 * @property {Choice} best
 * @property {Choice} best_make the choice most likely to make the bid
 * @property {number | null} expected
 * @property {number | null} best_expected
 * @property {number | null} make
 * @property {number | null} best_make_chance
 * @property {number} cost
 * @property {boolean} forced
 * @property {boolean} flagged
 * @property {Candidate[]} candidates
 */

/**
 * One seat's round.
 * @typedef {object} RoundReview
 * @property {number} round
 * @property {number} bid
 * @property {number} tricks
 * @property {number} score
 * @property {number | null} luck
 * @property {number} bidding points lost bidding
 * @property {number} play points lost playing
 * @property {number} flagged how many decisions are flagged
 * @property {Decision[]} decisions
 */

/**
 * A mistake of the game, biggest first: where it is.
 * @typedef {object} Mistake
 * @property {number} round
 * @property {number} step
 * @property {number} cost
 */

/**
 * One seat's review.
 * @typedef {object} SeatReview
 * @property {number} seat
 * @property {string} player
 * @property {number} score
 * @property {number} luck
 * @property {number} bidding
 * @property {number} play
 * @property {Mistake[]} mistakes
 * @property {RoundReview[]} rounds
 */

/**
 * The server's answer once the review is ready.
 * @typedef {object} ReviewAnswer
 * @property {number} seat the reviewed seat
 * @property {boolean} others whether this page may review the other seats too
 * @property {{players: string[], deals: number, seats: SeatReview[]}} review
 */

export {};
