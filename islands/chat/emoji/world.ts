/** Nature, food, activities and travel for the emoji picker, one `emoji english|português|español` a line (see emoji-data.ts). */
export const NATURE = `
🐶 dog puppy|cachorro|perro
🐱 cat|gato|gato
🐭 mouse|rato|ratón
🐹 hamster|hamster|hámster
🐰 rabbit bunny|coelho|conejo
🦊 fox|raposa|zorro
🐻 bear|urso|oso
🐼 panda|panda|panda
🐨 koala|coala|koala
🐯 tiger|tigre|tigre
🦁 lion|leão|león
🐮 cow|vaca|vaca
🐷 pig|porco|cerdo
🐸 frog|sapo|rana
🐵 monkey|macaco|mono
🐔 chicken|galinha|gallina
🐧 penguin|pinguim|pingüino
🐦 bird|pássaro|pájaro
🐤 chick|pintinho|pollito
🦆 duck|pato|pato
🦅 eagle|águia|águila
🦉 owl|coruja|búho
🐴 horse|cavalo|caballo
🦄 unicorn|unicórnio|unicornio
🐝 bee|abelha|abeja
🦋 butterfly|borboleta|mariposa
🐌 snail slow|caracol lento|caracol lento
🐞 ladybug|joaninha|mariquita
🐢 turtle slow|tartaruga lenta|tortuga lenta
🐍 snake|cobra|serpiente
🐙 octopus|polvo|pulpo
🐠 fish tropical|peixe|pez
🐬 dolphin|golfinho|delfín
🐳 whale|baleia|ballena
🦈 shark|tubarão|tiburón
🐘 elephant|elefante|elefante
🦒 giraffe|girafa|jirafa
🐾 paw prints|pegadas patas|huellas patas
🌵 cactus|cacto|cactus
🎄 christmas tree|árvore de natal|árbol de navidad
🌲 evergreen tree|pinheiro|pino
🌳 tree|árvore|árbol
🌴 palm tree beach|coqueiro palmeira|palmera
🌱 seedling plant|broto planta|brote planta
🌿 herb|erva|hierba
🍀 four leaf clover luck|trevo sorte|trébol suerte
🍁 maple leaf|folha de bordo|hoja de arce
🍂 fallen leaves autumn|folhas outono|hojas otoño
💐 bouquet flowers|buquê flores|ramo flores
🌷 tulip|tulipa|tulipán
🌹 rose|rosa|rosa
🌺 hibiscus|hibisco|hibisco
🌻 sunflower|girassol|girasol
🌼 blossom flower|flor|flor
🌸 cherry blossom|flor de cerejeira|flor de cerezo
🌞 sun face|sol|sol
☀️ sun sunny|sol ensolarado|sol soleado
⛅ sun behind cloud|sol entre nuvens|sol entre nubes
☁️ cloud|nuvem|nube
🌧️ rain|chuva|lluvia
⛈️ storm thunder|tempestade trovão|tormenta trueno
❄️ snowflake cold|floco de neve frio|copo de nieve frío
🌈 rainbow|arco-íris|arcoíris
🌙 moon night|lua noite|luna noche
⭐ star|estrela|estrella
🌟 glowing star|estrela brilhante|estrella brillante
⚡ lightning high voltage|raio energia|rayo energía
🔥 fire hot lit|fogo quente|fuego caliente
💧 droplet water|gota água|gota agua
🌊 wave ocean sea|onda mar|ola mar
🌍 earth globe world|terra mundo|tierra mundo
`;

export const FOOD = `
🍏 green apple|maçã verde|manzana verde
🍎 apple red|maçã|manzana
🍐 pear|pera|pera
🍊 orange tangerine|laranja tangerina|naranja mandarina
🍋 lemon|limão|limón
🍌 banana|banana|plátano banana
🍉 watermelon|melancia|sandía
🍇 grapes|uva|uvas
🍓 strawberry|morango|fresa
🍒 cherries|cereja|cerezas
🍑 peach|pêssego|melocotón durazno
🥭 mango|manga|mango
🍍 pineapple|abacaxi|piña
🥥 coconut|coco|coco
🥝 kiwi|kiwi|kiwi
🍅 tomato|tomate|tomate
🥑 avocado|abacate|aguacate palta
🥦 broccoli|brócolis|brócoli
🥕 carrot|cenoura|zanahoria
🌽 corn|milho|maíz
🌶️ hot pepper chili|pimenta|chile picante
🥔 potato|batata|papa patata
🥐 croissant|croissant|cruasán
🍞 bread|pão|pan
🧀 cheese|queijo|queso
🥚 egg|ovo|huevo
🍳 cooking fried egg|ovo frito cozinhar|huevo frito cocinar
🥓 bacon|bacon|tocino
🍗 chicken leg|coxa de frango|muslo de pollo
🍖 meat bone|carne|carne
🍔 hamburger burger|hambúrguer|hamburguesa
🍟 fries|batata frita|papas fritas
🍕 pizza|pizza|pizza
🌭 hot dog|cachorro-quente|perrito caliente
🥪 sandwich|sanduíche|sándwich
🌮 taco|taco|taco
🌯 burrito|burrito|burrito
🥗 salad|salada|ensalada
🍝 spaghetti pasta|macarrão espaguete|espagueti pasta
🍜 noodles ramen|lámen|fideos ramen
🍣 sushi|sushi|sushi
🍤 shrimp|camarão|camarón gamba
🍦 ice cream soft|sorvete|helado
🍰 cake slice|bolo fatia|pastel tarta
🎂 birthday cake|bolo de aniversário|pastel de cumpleaños
🧁 cupcake|cupcake bolinho|magdalena
🍫 chocolate|chocolate|chocolate
🍬 candy|bala doce|caramelo dulce
🍭 lollipop|pirulito|piruleta
🍩 doughnut|rosquinha donut|dona rosquilla
🍪 cookie|biscoito bolacha|galleta
🍯 honey|mel|miel
☕ coffee hot|café|café
🍵 tea|chá|té
🧃 juice box|suco|jugo zumo
🥤 cup straw soda|refrigerante copo|refresco vaso
🍺 beer|cerveja|cerveza
🍻 cheers beers|brinde cervejas|brindis cervezas
🍷 wine|vinho|vino
🥂 toast champagne|brinde champanhe|brindis champán
🍹 cocktail tropical|drinque coquetel|cóctel
🍽️ plate cutlery|prato talheres|plato cubiertos
`;

export const ACTIVITIES = `
⚽ soccer football|futebol bola|fútbol balón
🏀 basketball|basquete|baloncesto
🏈 american football|futebol americano|fútbol americano
⚾ baseball|beisebol|béisbol
🎾 tennis|tênis|tenis
🏐 volleyball|vôlei|voleibol
🏓 ping pong|pingue-pongue|ping pong
🥊 boxing glove|luva de boxe|guante de boxeo
🏋️ weight lifting gym|academia musculação|gimnasio pesas
🚴 cycling bike|ciclismo bicicleta|ciclismo bicicleta
🏊 swimming|natação|natación
🧘 yoga|ioga|yoga
🏆 trophy winner|troféu campeão|trofeo campeón
🥇 gold medal first|medalha de ouro|medalla de oro
🥈 silver medal second|medalha de prata|medalla de plata
🥉 bronze medal third|medalha de bronze|medalla de bronce
🏅 medal|medalha|medalla
🎖️ military medal|condecoração|condecoración
🎯 target bullseye goal|alvo meta|diana objetivo
🎮 video game|videogame jogo|videojuego
🎲 dice game|dado jogo|dado juego
🧩 puzzle|quebra-cabeça|rompecabezas
🎨 art palette|arte pintura|arte pintura
🎬 movie clapper|cinema filme|cine película
🎤 microphone sing|microfone cantar|micrófono cantar
🎧 headphones music|fones música|auriculares música
🎵 music note|nota musical|nota musical
🎶 music notes|notas musicais|notas musicales
🎸 guitar|violão guitarra|guitarra
🎹 piano keyboard|piano teclado|piano teclado
🥁 drum|tambor bateria|tambor batería
🎉 party popper celebrate|festa comemoração|fiesta celebración
🎊 confetti ball|confete|confeti
🎈 balloon|balão|globo
🎁 gift present|presente|regalo
🎀 ribbon bow|laço fita|lazo cinta
🎗️ reminder ribbon|fita lembrete|cinta recordatorio
🎟️ ticket admission|ingresso|entrada boleto
🪅 piñata|pinhata|piñata
🎃 pumpkin halloween|abóbora halloween|calabaza halloween
🎆 fireworks|fogos de artifício|fuegos artificiales
✨ sparkles|brilhos faíscas|destellos brillos
`;

export const TRAVEL = `
🚗 car|carro|coche auto
🚕 taxi|táxi|taxi
🚌 bus|ônibus|autobús
🚑 ambulance|ambulância|ambulancia
🚒 fire engine|caminhão de bombeiros|camión de bomberos
🚓 police car|viatura polícia|coche de policía
🚚 delivery truck shipping|caminhão entrega|camión reparto envío
🚛 lorry truck|carreta|camión
🏍️ motorcycle|moto|moto
🛵 scooter delivery|motoboy scooter|scooter moto
🚲 bicycle|bicicleta|bicicleta
🛴 kick scooter|patinete|patinete
🚨 siren alert|sirene alerta|sirena alerta
🚦 traffic light|semáforo|semáforo
🚧 construction|obras|obras
⛽ fuel pump gas|posto combustível|gasolinera
🚆 train|trem|tren
🚇 metro subway|metrô|metro
✈️ airplane flight|avião voo|avión vuelo
🛫 departure|decolagem|despegue
🛬 arrival|pouso|aterrizaje
🚀 rocket launch|foguete lançamento|cohete lanzamiento
🚁 helicopter|helicóptero|helicóptero
⛵ sailboat|veleiro|velero
🚢 ship|navio|barco
⚓ anchor|âncora|ancla
🗺️ map|mapa|mapa
📍 pin location|localização alfinete|ubicación chincheta
🧭 compass|bússola|brújula
🏠 house home|casa lar|casa hogar
🏡 house garden|casa com jardim|casa con jardín
🏢 office building|prédio escritório|edificio oficina
🏬 store mall|loja shopping|tienda centro comercial
🏪 convenience store|loja conveniência|tienda
🏥 hospital|hospital|hospital
🏦 bank|banco|banco
🏨 hotel|hotel|hotel
🏫 school|escola|escuela
⛪ church|igreja|iglesia
🏖️ beach|praia|playa
⛰️ mountain|montanha|montaña
🌋 volcano|vulcão|volcán
🏕️ camping|acampamento|camping
🌃 night city|noite cidade|noche ciudad
🗽 statue of liberty|estátua da liberdade|estatua de la libertad
🎡 ferris wheel|roda-gigante|noria
`;
