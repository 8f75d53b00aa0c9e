// Package exchange is the pure mathematics of the RoundTable exchange-economy
// task and the decision logic of rule-based "utility agents".
//
// # Economy
//
// K agents share K goods, Supply (100) units of each. Agent i's utility is the
// Cobb-Douglas u_i = prod_k a_ik^theta_ik. A proposal is an Allocation, a
// K x K matrix whose row i is agent i's bundle and whose columns sum to the
// supply. The group's hidden goal is U = sum_i u_i, reported as a fraction
// of U_max, the maximum over all feasible allocations, which UMax computes
// numerically. For K = 3: asymmetric U_max = 3 * 80^0.8 * 10^0.2 ~ 158.34
// (agent i gets 80 of good i and 10 of each other good); symmetric and
// uniform U_max = Supply = 100, since identical utilities that are
// homogeneous of degree 1 are superadditive, so no split beats one bundle of
// everything, and every proportional split attains it.
//
// # Metrics
//
// Measure turns the rounds of a table into the paper's measures: U@r, AUC@n,
// fairness (min/max utility), rationality and rigidity; see Metrics. The
// paper's tables print AUC@n divided by n (MeanAUC) as a percentage.
//
// # Utility agents
//
// A Strategy plays one agent. It knows only its own weights and learns the
// others' from their messages (Statement, ParseStatement), as people would.
//
// Proposals concede over the rounds. The agent's opening keeps, of each good,
// a share between the equal 1/K and all of it, 70% of the way toward all for
// its favourite good and proportionally less for goods it values less, and
// gives the rest to the others. Its target is the consensus: 15% of every
// good shared equally (a Cobb-Douglas utility is 0 when any weighted good is
// 0) and the rest in proportion to the squared weights, so mostly to whoever
// values the good most; agents with unknown weights count as uniform. Each
// round the agent proposes the point (round-1)/h of the way from opening to
// consensus, where the horizon h is drawn once per table from the seed
// between 0.2 and 1.1 times the number of rounds: some agents concede fast,
// some are still holding out at the end. The consensus depends only on the
// published weights, so agents who have fully conceded propose the same
// allocation and their proposals merge into one candidate. An agent never
// proposes something worse for itself than the decision in force; it
// re-proposes the decision instead. Amounts are rounded to 0.01. The seed
// also adds a small jitter to the opening, so seeds differ slightly and a
// seed always repeats.
//
// Ballots follow self-interest. Choose picks the candidate best for the
// agent, so a one-vote rule passes a candidate only when enough agents have
// conceded to the same consensus: under majority voting this happens once
// all but the most stubborn agents have conceded, under unanimous voting
// only once everyone has, which in many tables is never. Scores, Ranking
// and Points grade every candidate, so score-based rules move earlier to
// allocations that are fairly good for most agents. With K = 3 and the
// asymmetric weights, 50 seeds give a mean U@10 of about 80% of U_max under
// majority, 49% under unanimous and 98% under rated voting.
package exchange
