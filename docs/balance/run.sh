#!/bin/sh
# The balance lab runs behind docs/balance.md. Run from the repository root:
#   sh docs/balance/run.sh            (all three questions)
#   sh docs/balance/run.sh openings   (or: spy2, infiltration, reds, bots, seats)
# Reports go to $OUT (default var/balance/<question>[-<field>]); the report.md and plots
# docs/balance.md shows are copied to docs/balance/<same name>/. JOBS worker processes
# (default 2). About 10 minutes on two idle cores in all.
set -eu
OUT=${OUT:-var/balance}
JOBS=${JOBS:-2}
LAB="nice -n 10 .venv/bin/spyhouse lab"
WHICH=${1:-all}
PAIR=docs/balance/openings.py

keep() {  # keep the report and its plots beside docs/balance.md
    mkdir -p "docs/balance/$1"
    cp "$OUT/$1/report.md" "$OUT"/"$1"/*.png "docs/balance/$1/"
}

if [ "$WHICH" = all ] || [ "$WHICH" = openings ]; then
    # Growth first or information first: two matched pairs (grower/informer: the hunter's
    # play after 4 growth turns or none; Patient/Eager: the economist's after 6 or none)
    # in a field of four bots of one kind.
    for field in economist hunter shadow; do
        $LAB spyvsspy --bots "grower,informer,$PAIR:Patient,$PAIR:Eager,$field,$field,$field,$field" \
            --players 8 --games 192 --seed 1 --jobs "$JOBS" --out "$OUT/openings-$field" -q
        keep "openings-$field"
    done
fi

if [ "$WHICH" = all ] || [ "$WHICH" = spy2 ]; then
    # Each Spy 2 rule change alone (the option spy2_changes), all of them (variant spy2)
    # and none (classic), on the same seeds.
    $LAB spyvsspy --bots economist,hunter,shadow --players 8 --games 90 --seed 1 --jobs "$JOBS" \
        --variants 'classic={}' \
        'tasks={"spy2_changes": ["tasks"]}' \
        'search={"spy2_changes": ["search"]}' \
        'declarations={"spy2_changes": ["declarations"]}' \
        'sightings={"spy2_changes": ["sightings"]}' \
        'guard={"spy2_changes": ["guard"]}' \
        'spy2={"variant": "spy2"}' \
        --out "$OUT/spy2" -q
    keep spy2
fi

if [ "$WHICH" = all ] || [ "$WHICH" = infiltration ]; then
    # Team balance by size: the sizes on either side of each step in the number of Reds
    # (floor((N+1)/4): 6 -> 1, 7-10 -> 2, 11-14 -> 3, 15-18 -> 4, 19-20 -> 5).
    $LAB infiltration --bots operative,vigilante --players 6,7,10,11,14,15,18,19,20 \
        --games 60 --seed 1 --jobs "$JOBS" --out "$OUT/infiltration" -q
    keep infiltration
fi

if [ "$WHICH" = all ] || [ "$WHICH" = reds ]; then
    # The Red-favoured size 7 with one Red fewer (the option reds), on the same seeds.
    $LAB infiltration --bots operative,vigilante --players 7 --games 120 --seed 1 \
        --jobs "$JOBS" --variants 'default={}' 'one red={"reds": 1}' \
        --out "$OUT/infiltration-reds" -q
    keep infiltration-reds
fi

if [ "$WHICH" = all ] || [ "$WHICH" = bots ]; then
    # Issue 15's yardstick: each Kingdoms bot as one of six players, five of them random.
    for bot in warlord spymaster steward conqueror; do
        $LAB kingdoms --bots "$bot,random,random,random,random,random" --players 6 \
            --games 600 --seed 1 --jobs "$JOBS" --out "$OUT/kingdoms-$bot" -q
        keep "kingdoms-$bot"
    done
fi

if [ "$WHICH" = all ] || [ "$WHICH" = seats ]; then
    # Seat bias: every seat the same bot, 240 games.
    for bot in warlord spymaster steward conqueror random; do
        $LAB kingdoms --bots "$bot" --players 6 --games 240 --seed 1 --jobs "$JOBS" \
            --out "$OUT/seats-kingdoms-$bot" -q
        keep "seats-kingdoms-$bot"
    done
    for bot in economist hunter shadow grower informer; do
        $LAB spyvsspy --bots "$bot" --players 8 --games 240 --seed 1 --jobs "$JOBS" \
            --out "$OUT/seats-spyvsspy-$bot" -q
        keep "seats-spyvsspy-$bot"
    done
fi

# The tables of docs/balance.md and docs/balance/openings.png, from whatever ran.
.venv/bin/python docs/balance/tables.py "$OUT" > "$OUT/tables.md"
echo "tables: $OUT/tables.md"
