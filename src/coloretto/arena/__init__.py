"""Playing many games: the game driver, simulation, tournaments, ratings, benchmarks."""
